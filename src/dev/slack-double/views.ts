import type { DoubleContext, Methods } from './context.js';

/** `views.*`: modals opened, pushed and updated on a person's stack, and App Homes published. */
export function viewsMethods({ double, triggers, storeView }: DoubleContext): Methods {
  /** The modal opens for the person whose gesture made the trigger (a push goes on their stack). */
  const open =
    (push: boolean) =>
    (a: Record<string, unknown>): Record<string, unknown> => {
      const id = storeView(a.view as Record<string, unknown>);
      const user = triggers.get(String(a.trigger_id));
      if (user) double.modalStacks.set(user, [...(push ? (double.modalStacks.get(user) ?? []) : []), id]);
      return { ok: true, view: double.views.get(id)?.view };
    };
  return {
    'views.open': { blocks: 'view', changes: true, answer: open(false) },
    'views.push': { blocks: 'view', changes: true, answer: open(true) },
    'views.update': {
      blocks: 'view',
      changes: true,
      answer: (a) => {
        const id =
          (a.view_id as string | undefined) ??
          [...double.views.values()].find((v) => v.view.external_id === a.external_id)?.id;
        if (!id || !double.views.has(id)) return { ok: false, error: 'not_found' };
        storeView(a.view as Record<string, unknown>, id);
        return { ok: true, view: double.views.get(id)?.view };
      },
    },
    'views.publish': {
      blocks: 'view',
      changes: true,
      answer: (a) => {
        const view = { ...(a.view as Record<string, unknown>), id: `VHOME${a.user_id}` };
        double.homes.set(String(a.user_id), view);
        return { ok: true, view };
      },
    },
  };
}
