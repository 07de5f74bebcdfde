/*
 * What many surfaces share: errors a person can fix, the working notices, modal frames, usage and generic replies.
 * English and French; French has exactly English's keys. Typography of French: see ../fr.ts.
 */
export const en = {} as const;

export const fr: Readonly<Record<keyof typeof en, string>> = {};
