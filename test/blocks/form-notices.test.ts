import { describe, expect, it } from 'vitest';
import { buildConferenceForm, maxNotices } from '../../src/blocks/conference-form.js';
import { checkBlockKit } from '../../src/blocks/limits.js';
import { escaped } from '../../src/blocks/mrkdwn.js';

type Json = Record<string, unknown>;
const form = (notices: string[]) =>
  buildConferenceForm({
    locale: 'en',
    mode: 'create',
    values: { participants: [], people: [] },
    metadata: '{}',
    notices: notices.map((n) => escaped(n)),
  });
const noticeTexts = (view: { blocks: readonly object[] }) =>
  (view.blocks as Json[]).filter((b) => b.type === 'section').map((b) => (b.text as { text: string }).text);

describe('the conference form’s notices', () => {
  it('shows every notice when there are few', () => {
    expect(noticeTexts(form(['a', 'b']))).toEqual([':warning: a', ':warning: b']);
  });

  it('shows at most five, the last one counting the rest, so a long command text cannot fill the form', () => {
    const view = form(Array.from({ length: 1_000 }, (_, i) => `problem ${i} ${'x'.repeat(4_000)}`));
    expect(checkBlockKit(view, 'modal')).toEqual([]);
    const texts = noticeTexts(view);
    expect(texts).toHaveLength(maxNotices);
    expect(texts.at(-1)).toBe(':warning: …and 996 more problems.');
  });
});
