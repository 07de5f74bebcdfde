/*
 * Conference cards, lists, replies, the conference form and reminders.
 * English and French; French has exactly English's keys. Typography of French: see ../fr.ts.
 */
export const en = {} as const;

export const fr: Readonly<Record<keyof typeof en, string>> = {};
