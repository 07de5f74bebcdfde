/*
 * The ticket forms (create, edit, export), the ticket prompts and replies around them, the ticket
 * service's sentences and the ticket Workflow steps' outputs.
 * English and French; French has exactly English's keys. Typography of French: see ../fr.ts.
 */
export const en = {} as const;

export const fr: Readonly<Record<keyof typeof en, string>> = {};
