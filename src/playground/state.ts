import { dmChannelOf, type SlackDouble } from '../dev/slack-double.js';
import { stepDefinitions } from '../domain/workflow-steps.js';
import { demoChannels, demoPeople } from './people.js';
import type { PlatformControls, Shortcut, State, WorkflowStep } from './web/contract.js';

/** What the page shows to one person (`GET /api/state?as=U…`). */
export type PlaygroundState = State;

/** `T` with its possibly-undefined fields made optional instead. */
type Present<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** Copies only the fields that are set (the contract's optional fields are absent, not undefined). */
export const present = <T extends Record<string, unknown>>(o: T): Present<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Present<T>;

/** Assembles one person's view of the double, the manifest's shortcuts and the platform controls. */
export function buildState(o: {
  as: string;
  version: number;
  slack: SlackDouble;
  shortcuts: Shortcut[];
  platform: PlatformControls | null;
  notice: { at: number; text: string } | undefined;
}): PlaygroundState {
  const { slack, as } = o;
  return {
    version: o.version,
    bot: { id: slack.botUserId, name: 'confdesk' },
    people: demoPeople.map((p) => ({
      id: p.id,
      name: p.name,
      realName: p.realName,
      email: p.email,
      tz: p.tz,
      role: p.role,
      locale: slack.users.get(p.id)?.locale ?? p.locale,
    })),
    channels: demoChannels.map((c) => ({ ...c })),
    messages: slack.messages.map((m) =>
      present({
        channel: m.channel,
        ts: m.ts,
        thread_ts: m.thread_ts,
        user: m.user ?? slack.botUserId,
        text: m.text,
        blocks: m.blocks,
        edited: m.edited,
        files: m.files?.map((f) => ({ ...f, url: `/files/${encodeURIComponent(f.id)}` })),
        reactions: m.reactions?.map((r) => ({ name: r.name, users: [...r.users] })),
        unfurls: m.unfurls
          ? Object.entries(m.unfurls).map(([url, u]) => ({ url, blocks: u.blocks ?? [] }))
          : undefined,
      }),
    ),
    ephemerals: slack.ephemerals
      .filter((e) => e.user === as)
      .map((e) =>
        present({
          id: e.id,
          channel: e.channel,
          ts: e.ts,
          thread_ts: e.thread_ts,
          text: e.text,
          blocks: e.blocks,
        }),
      ),
    modals: slack.modals(as),
    home: slack.homes.get(as) ?? null,
    shortcuts: o.shortcuts,
    platform: o.platform,
    ...(o.notice ? { notice: o.notice } : {}),
    steps: workflowSteps(),
    dm: dmChannelOf(as),
  };
}

/** The steps' inputs a builder sets and their outputs, from the steps' table (manifest.steps.yml's). */
export function workflowSteps(): WorkflowStep[] {
  return Object.entries(stepDefinitions).map(([callback_id, d]) => ({
    callback_id,
    title: d.title,
    description: d.description,
    inputs: Object.entries(d.input_parameters.properties)
      .filter(([, p]) => p.type !== 'slack#/types/user_context' && p.type !== 'slack#/types/interactivity')
      .map(([name, p]) => ({
        name,
        type: p.type === 'array' ? `array:${p.items?.type ?? 'string'}` : p.type,
        title: p.title,
        ...(p.description ? { description: p.description } : {}),
        required: d.input_parameters.required.includes(name),
        ...(p.choices ? { choices: [...p.choices] } : {}),
      })),
    outputs: Object.entries(d.output_parameters.properties).map(([name, p]) => ({ name, title: p.title })),
  }));
}
