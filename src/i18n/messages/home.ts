/*
 * App Home (each person's language).
 * English and French; French has exactly English's keys. Typography of French: see ../fr.ts.
 */
export const en = {} as const;

export const fr: Readonly<Record<keyof typeof en, string>> = {};
