/**
 * The platform side of the playground: what happens on the video platform without Slack (an agent
 * moves a ticket in the platform's own UI, a guest joins, a snapshot is taken), so a person can
 * watch the bot notice it and tell the thread.
 */
import { useState } from 'preact/hooks';
import type { Answer, Json, PlatformControls } from './api.js';

export function PlatformPanel({
  platform,
  send,
  onClose,
}: {
  platform: PlatformControls | null;
  send: (body: Json) => Promise<Answer>;
  onClose: () => void;
}) {
  const [ticketId, setTicketId] = useState<number | undefined>(undefined);
  const [target, setTarget] = useState('');
  const [eventName, setEventName] = useState('');
  const ticket = platform?.tickets.find((t) => t.id === ticketId) ?? platform?.tickets[0];
  const state = target || platform?.states.find((s) => s !== ticket?.state) || '';
  const op = (body: Json) => void send({ ticketId: ticket?.id, ...body });
  return (
    <aside class="side-pane platform" aria-label="Platform">
      <div class="pane-head">
        <h2>Platform</h2>
        <button type="button" class="pane-x" aria-label="Close platform panel" onClick={onClose}>
          ×
        </button>
      </div>
      {platform ? (
        <div class="pane-body">
          <p class="pane-note">
            Acts on the built-in platform simulator directly, as someone using the platform would; the bot
            learns of it by its poller or a webhook.
          </p>
          <div class="field">
            <label for="pf-ticket">Ticket</label>
            <select
              id="pf-ticket"
              value={ticket?.id ?? ''}
              onChange={(e) => setTicketId(Number(e.currentTarget.value))}
            >
              {platform.tickets.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.reference} — {t.title} ({t.state})
                </option>
              ))}
            </select>
          </div>
          <div class="field-row">
            <div class="field grow">
              <label for="pf-state">State</label>
              <select id="pf-state" value={state} onChange={(e) => setTarget(e.currentTarget.value)}>
                {platform.states.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </div>
            <button
              type="button"
              class="bk-btn"
              disabled={!ticket}
              onClick={() => op({ op: 'state', state })}
            >
              Set state
            </button>
          </div>
          <div class="field-row">
            <div class="field grow">
              <label for="pf-event">Event name</label>
              <input
                id="pf-event"
                type="text"
                value={eventName}
                placeholder="e.g. agent.note"
                onInput={(e) => setEventName(e.currentTarget.value)}
              />
            </div>
            <button
              type="button"
              class="bk-btn"
              disabled={!ticket || !eventName.trim()}
              onClick={() => op({ op: 'event', name: eventName.trim() })}
            >
              Add event
            </button>
          </div>
          <div class="button-row">
            <button type="button" class="bk-btn" disabled={!ticket} onClick={() => op({ op: 'media' })}>
              Take snapshot
            </button>
            <button type="button" class="bk-btn" disabled={!ticket} onClick={() => op({ op: 'guest-join' })}>
              Guest joins
            </button>
            <button type="button" class="bk-btn" disabled={!ticket} onClick={() => op({ op: 'session-end' })}>
              Session ends
            </button>
          </div>
          <div class="check">
            <input
              id="pf-webhooks"
              type="checkbox"
              checked={platform.webhooks}
              onChange={(e) => void send({ op: 'webhooks', on: e.currentTarget.checked })}
            />
            <label for="pf-webhooks">Webhooks</label>
            <span class="pane-note">the simulator posts each change to the bot at once</span>
          </div>
          {platform.backlog && <p class="pane-note">Ticket events: {platform.backlog}</p>}
        </div>
      ) : (
        <div class="pane-body pane-note">
          The platform is not the built-in simulator: nothing to drive from here.
        </div>
      )}
    </aside>
  );
}
