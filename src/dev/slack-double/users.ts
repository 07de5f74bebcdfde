import type { DoubleContext, Methods } from './context.js';

/** `users.*`: the workspace's people, by id, by e-mail, and page by page. */
export function usersMethods({ double }: DoubleContext): Methods {
  return {
    'users.info': {
      answer: (a) => {
        const found = double.users.get(a.user as string);
        if (!found) return { ok: false, error: 'user_not_found' };
        // Slack answers a person's `locale` only when asked (`include_locale: true`, form-encoded as a string).
        const { locale, ...user } = found;
        return {
          ok: true,
          user:
            (a.include_locale === true || a.include_locale === 'true') && locale ? { ...user, locale } : user,
        };
      },
    },
    'users.list': {
      answer: (a) => {
        // Cursor paging as Slack does it: the cursor is the index of the next member.
        const all = [...double.users.values()];
        const start = Number(a.cursor || 0);
        const limit = Math.max(1, Math.min(Number(a.limit || 200), 1_000));
        const next = start + limit < all.length ? String(start + limit) : '';
        return {
          ok: true,
          members: all.slice(start, start + limit),
          response_metadata: { next_cursor: next },
        };
      },
    },
    'users.lookupByEmail': {
      answer: (a) => {
        const user = [...double.users.values()].find(
          (u) => u.profile.email?.toLowerCase() === String(a.email).toLowerCase(),
        );
        return user ? { ok: true, user } : { ok: false, error: 'users_not_found' };
      },
    },
  };
}
