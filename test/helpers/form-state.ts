type Json = Record<string, unknown>;

/**
 * The `view.state.values` Slack would send for a view: each input's initial value, then `changes`
 * (by block id: a string for text inputs, or the element state itself).
 */
export function formState(view: Json, changes: Record<string, string | Json | undefined> = {}): Json {
  const values: Json = {};
  for (const b of (view.blocks as Json[]) ?? []) {
    if (b.type !== 'input') continue;
    const e = b.element as Json;
    const id = b.block_id as string;
    let state: Json = { type: e.type };
    if (e.initial_value !== undefined) state.value = e.initial_value;
    if (e.initial_users) state.selected_users = e.initial_users;
    if (e.initial_user) state.selected_user = e.initial_user;
    if (e.initial_conversation) state.selected_conversation = e.initial_conversation;
    if (e.initial_date_time !== undefined) state.selected_date_time = e.initial_date_time;
    if (e.initial_time) state.selected_time = e.initial_time;
    if (e.initial_option) state.selected_option = e.initial_option;
    if (e.type === 'checkboxes') state.selected_options = e.initial_options ?? [];
    if (id in changes) {
      const c = changes[id];
      state =
        typeof c === 'string'
          ? { type: e.type, value: c }
          : c === undefined
            ? { type: e.type }
            : { type: e.type, ...c };
    }
    values[id] = { [e.action_id as string]: state };
  }
  return values;
}
