/*
 * The daily digest (text and chart labels: the channel's language), its form and replies, the doctor's report, job notices, workspace settings and unfurls.
 * English and French; French has exactly English's keys. Typography of French: see ../fr.ts.
 */
export const en = {} as const;

export const fr: Readonly<Record<keyof typeof en, string>> = {};
