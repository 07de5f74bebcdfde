import { describe, expect, it } from 'vitest';
import { ids } from '../../src/blocks/ids.js';
import { checkBlockKit, limits } from '../../src/blocks/limits.js';
import {
  buildMediaDeletePrompt,
  buildMediaDetails,
  buildMediaEditForm,
  buildMediaLibrary,
  buildMediaShareForm,
  buildMediaTooBig,
  mediaLine,
} from '../../src/blocks/media.js';
import type { MediaItem } from '../../src/domain/media.js';

type Json = Record<string, unknown>;
const item = (i: number): MediaItem => ({
  id: String(5000 + i),
  type: i % 2 ? 'recording' : 'snapshot',
  status: 'completed',
  title: `Item ${i}`,
  format: 'video/mp4',
  size: 3_145_728,
  created: new Date('2026-11-02T10:00:00Z'),
});

describe('the media builders', () => {
  it('the library: a row per item with its four-entry menu, the count, and paging buttons carrying the query', () => {
    const view = buildMediaLibrary(
      'en',
      { q: 'type:recording', o: 10 },
      {
        items: Array.from({ length: 10 }, (_, i) => item(i)),
        offset: 10,
        limit: 10,
        total: 35,
        hasMore: true,
      },
    );
    expect(checkBlockKit(view, 'modal')).toEqual([]);
    expect(view.callback_id).toBe(ids.views.mediaLibrary);
    expect(JSON.parse(view.private_metadata as string)).toEqual({ q: 'type:recording', o: 10 });
    const text = JSON.stringify(view.blocks);
    expect(text).toContain('11–20 of 35');
    const menus = (view.blocks as unknown as Json[])
      .map((b) => b.accessory as Json | undefined)
      .filter((a) => a?.type === 'overflow');
    expect(menus).toHaveLength(10);
    expect(((menus[0] as Json).options as Json[]).map((o) => o.value)).toEqual([
      'show:5000',
      'edit:5000',
      'share:5000',
      'delete:5000',
    ]);
    const nav = (view.blocks as unknown as Json[]).find((b) => b.type === 'actions') as Json;
    const values = (nav.elements as Json[]).map((e) => [e.action_id, JSON.parse(e.value as string)]);
    expect(values).toEqual([
      [`${ids.actions.mediaPage}:prev`, { q: 'type:recording', o: 0 }],
      [`${ids.actions.mediaPage}:next`, { q: 'type:recording', o: 20 }],
    ]);
  });

  it('the library holds Slack’s 100-block limit whatever the page size', () => {
    const view = buildMediaLibrary(
      'en',
      { q: '', o: 0 },
      { items: Array.from({ length: 300 }, (_, i) => item(i)), offset: 0, limit: 300, hasMore: true },
    );
    expect(checkBlockKit(view, 'modal')).toEqual([]);
    expect((view.blocks as unknown as Json[]).length).toBeLessThanOrEqual(limits.viewBlocks);
  });

  it('a page whose items are all hidden says how many and why, not “No media found”', () => {
    const page = (hidden: number, hasMore: boolean) =>
      JSON.stringify(
        buildMediaLibrary(
          'en',
          { q: 'user:carol', o: 0 },
          { items: [], offset: 0, limit: 10, hasMore, hidden },
        ).blocks,
      );
    const all = page(3, true);
    expect(all).toContain(
      'All 3 items on this page belong to other people, outside your groups: only a media’s owner, the members of its group and video platform admins see it.',
    );
    expect(all).toContain('Try *Next ›*');
    expect(all).toContain(`${ids.actions.mediaPage}:next`);
    expect(all).not.toContain('No media found');
    const one = page(1, false);
    expect(one).toContain('The only item on this page belongs to other people, outside your groups');
    expect(one).not.toContain('Next');
    // Nothing hidden and nothing found: the old sentence.
    expect(page(0, false)).toContain('No media found. Try other filters, or fewer of them.');
  });

  it('a page with some items hidden says how many beside the count, and why', () => {
    const view = (hidden: number) =>
      JSON.stringify(
        buildMediaLibrary(
          'en',
          { q: '', o: 0 },
          { items: [item(0), item(1)], offset: 0, limit: 10, hasMore: false, hidden },
        ).blocks,
      );
    expect(view(3)).toContain(
      '1–2 · 3 more items on this page are hidden: they belong to other people, outside your groups',
    );
    expect(view(1)).toContain('1–2 · 1 more item on this page is hidden: it belongs to other people');
    expect(view(0)).not.toContain('hidden');
  });

  it('a line: type, creation time as a date token, size and format', () => {
    const line = mediaLine(item(1)).text;
    expect(line).toContain('🎬 *Item 1*');
    expect(line).toContain('<!date^');
    expect(line).toContain('3.1 MB');
    expect(line).toContain('video/mp4');
  });

  it('the details show a thumbnail as an image block only when the record has one', () => {
    const withThumb = buildMediaDetails('en', { ...item(0), thumbnailUrl: 'https://cdn.example/t.png' });
    expect((withThumb.blocks as unknown as Json[]).some((b) => b.type === 'image')).toBe(true);
    expect(
      (buildMediaDetails('en', item(0)).blocks as unknown as Json[]).some((b) => b.type === 'image'),
    ).toBe(false);
  });

  it('the forms: edit inputs named after the update’s fields, share with a channel picker, delete behind a confirmation', () => {
    const edit = buildMediaEditForm('en', { title: 'T', lat: 1, lng: 2 }, '{}');
    expect((edit.blocks as unknown as Json[]).map((b) => b.block_id)).toEqual([
      'title',
      'description',
      'lat',
      'lng',
    ]);
    const share = buildMediaShareForm('en', item(0), '{}', 'C1');
    const channel = (share.blocks as unknown as Json[]).find(
      (b) => b.block_id === ids.mediaShare.channel,
    ) as Json;
    expect((channel.element as Json).type).toBe('conversations_select');
    const prompt = buildMediaDeletePrompt('en', item(0), { q: '', o: 0 });
    const del = JSON.stringify(prompt.blocks);
    expect(del).toContain(ids.actions.mediaDeleteConfirm);
    expect(del).toContain('"confirm"');
    for (const v of [edit, share, prompt]) expect(checkBlockKit(v, 'modal')).toEqual([]);
  });

  it('past the limit: the size, the limit and the link', () => {
    const text = buildMediaTooBig(
      'en',
      item(0),
      2e9,
      'https://video.example.com/api/v3/medias/5000/download',
      1e9,
    ).text;
    expect(text).toContain('2.0 GB');
    expect(text).toContain('1.0 GB');
    expect(text).toContain('<https://video.example.com/api/v3/medias/5000/download|');
  });

  it('in French: sizes in Mo/Go with a decimal comma, known types and states named, plurals', () => {
    const line = mediaLine({ ...item(1), status: 'processing' }, 'fr').text;
    expect(line).toContain('3,1\u00a0Mo');
    expect(line).toContain('enregistrement · en cours de traitement');
    expect(mediaLine({ ...item(1), type: 'hologram' }, 'fr').text).toContain('hologram');
    const tooBig = buildMediaTooBig('fr', item(0), 2e9, 'https://video.example.com/d', 1e9).text;
    expect(tooBig).toContain(
      '*Item 0* pèse 2,0\u00a0Go\u202f: au-delà de la taille de fichier permise par Slack (1,0\u00a0Go)',
    );
    expect(tooBig).toContain(
      'Récupérez-le plutôt ici\u202f: <https://video.example.com/d|télécharger depuis la plateforme vidéo>',
    );
    const page = (hidden: number) =>
      JSON.stringify(
        buildMediaLibrary(
          'fr',
          { q: '', o: 0 },
          { items: [item(0)], offset: 0, limit: 10, total: 1, hasMore: false, hidden },
        ).blocks,
      );
    expect(page(1)).toContain('1–1 sur 1 · 1 autre élément de cette page est masqué');
    expect(page(4)).toContain('4 autres éléments de cette page sont masqués');
    const view = buildMediaLibrary(
      'fr',
      { q: '', o: 0 },
      { items: [], offset: 0, limit: 10, hasMore: false },
    );
    expect(view.title).toMatchObject({ text: 'Médiathèque' });
    expect(JSON.stringify(view.blocks)).toContain('Aucun média trouvé.');
    // English as it always was.
    expect(mediaLine({ ...item(1), status: 'processing' }, 'en').text).toContain('recording · processing');
  });
});
