/**
 * *Workflows*: runs one of the bot's Workflow Builder steps as a workflow would. The person sets the
 * step's inputs (Slack fills "Run as" with the person acting, as for "Person who used this
 * workflow"), the page server sends `function_executed` through the bot's real receiver, and the
 * pane shows how the step ended: its outputs, or the error a workflow builder would see.
 */
import { useState } from 'preact/hooks';
import { post, type StepAnswer, type WorkflowStep } from './api.js';
import { useEnv } from './use-env.js';

type Values = Record<string, string>;

/** An input's value as Workflow Builder would hand it to the step (Slack's types). */
function typed(input: WorkflowStep['inputs'][number], raw: string): unknown {
  if (raw === '') return undefined;
  if (input.type === 'integer') return Number(raw);
  if (input.type === 'slack#/types/timestamp') return Math.floor(new Date(raw).getTime() / 1000);
  if (input.type.startsWith('array:'))
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return raw;
}

function StepInput({
  input,
  value,
  onInput,
}: {
  input: WorkflowStep['inputs'][number];
  value: string;
  onInput: (v: string) => void;
}) {
  const env = useEnv();
  const id = `step-${input.name}`;
  const people = env.state.people;
  let control: preact.JSX.Element;
  if (input.choices)
    control = (
      <select class="bk-select" id={id} value={value} onChange={(e) => onInput(e.currentTarget.value)}>
        <option value="">—</option>
        {input.choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.title}
          </option>
        ))}
      </select>
    );
  else if (input.type === 'slack#/types/channel_id')
    control = (
      <select class="bk-select" id={id} value={value} onChange={(e) => onInput(e.currentTarget.value)}>
        <option value="">—</option>
        {env.state.channels.map((c) => (
          <option key={c.id} value={c.id}>
            #{c.name}
          </option>
        ))}
      </select>
    );
  else if (input.type === 'slack#/types/user_id')
    control = (
      <select class="bk-select" id={id} value={value} onChange={(e) => onInput(e.currentTarget.value)}>
        <option value="">—</option>
        {people.map((p) => (
          <option key={p.id} value={p.id}>
            {p.realName}
          </option>
        ))}
      </select>
    );
  else {
    const kind =
      input.type === 'integer'
        ? 'number'
        : input.type === 'slack#/types/timestamp'
          ? 'datetime-local'
          : 'text';
    const common = {
      class: 'bk-text',
      id,
      value,
      onInput: (e: { currentTarget: HTMLInputElement }) => onInput(e.currentTarget.value),
    };
    control =
      kind === 'number' ? (
        <input type="number" {...common} />
      ) : kind === 'datetime-local' ? (
        <input type="datetime-local" {...common} />
      ) : (
        <input
          type="text"
          {...common}
          placeholder={input.type.startsWith('array:') ? 'U… ids, separated by commas' : ''}
        />
      );
  }
  return (
    <div class="bk-input">
      <label class="bk-label" for={id}>
        {input.title}
        {input.required ? '' : ' (optional)'}
      </label>
      {control}
      {input.description ? <div class="bk-hint">{input.description}</div> : null}
    </div>
  );
}

/** The *Workflows* pane: a step to pick, its inputs, Run, and what the step answered. */
export function WorkflowsPane() {
  const env = useEnv();
  const steps = env.state.steps ?? [];
  const [chosen, setChosen] = useState(steps[0]?.callback_id ?? '');
  const [values, setValues] = useState<Record<string, Values>>({});
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<StepAnswer | null>(null);
  const step = steps.find((s) => s.callback_id === chosen);
  if (!step) return <div class="log-empty">This confdesk declares no Workflow Builder step.</div>;
  const mine = values[step.callback_id] ?? {};
  const run = async () => {
    setBusy(true);
    setAnswer(null);
    const inputs = Object.fromEntries(
      step.inputs.map((i) => [i.name, typed(i, mine[i.name] ?? '')]).filter(([, v]) => v !== undefined),
    );
    setAnswer(
      (await post('/api/step', {
        as: env.as?.id ?? '',
        callback_id: step.callback_id,
        inputs,
      })) as StepAnswer,
    );
    setBusy(false);
  };
  return (
    <div class="workflows">
      <div class="workflow-form">
        <p class="bk-hint">
          A workflow reaches this step; Slack fills <b>Run as</b> with the person who used it:{' '}
          <b>{env.as?.realName}</b>.
        </p>
        <div class="bk-input">
          <label class="bk-label" for="step-pick">
            Step
          </label>
          <select
            class="bk-select"
            id="step-pick"
            value={chosen}
            onChange={(e) => {
              setChosen(e.currentTarget.value);
              setAnswer(null);
            }}
          >
            {steps.map((s) => (
              <option key={s.callback_id} value={s.callback_id}>
                {s.title}
              </option>
            ))}
          </select>
          <div class="bk-hint">{step.description}</div>
        </div>
        {step.inputs.map((i) => (
          <StepInput
            key={`${step.callback_id}-${i.name}`}
            input={i}
            value={mine[i.name] ?? ''}
            onInput={(v) => setValues((all) => ({ ...all, [step.callback_id]: { ...mine, [i.name]: v } }))}
          />
        ))}
        <button type="button" class="bk-btn primary" disabled={busy} onClick={() => void run()}>
          {busy ? 'Running…' : 'Run step'}
        </button>
      </div>
      <div class="workflow-result">
        {answer ? (
          <div class={`step-answer ${answer.failed || !answer.ok ? 'failed' : 'completed'}`} role="status">
            {answer.failed || !answer.ok ? (
              <>
                <b>The step failed</b> (what the workflow’s builder sees): {answer.failed ?? answer.error}
              </>
            ) : (
              <>
                <b>Completed</b> — outputs:
                <dl>
                  {step.outputs.map((o) => (
                    <>
                      <dt key={`${o.name}-t`}>{o.title}</dt>
                      <dd key={`${o.name}-d`}>{String(answer.outputs?.[o.name] ?? '') || '—'}</dd>
                    </>
                  ))}
                </dl>
              </>
            )}
          </div>
        ) : (
          <div class="log-empty">The step’s outputs, or the error its builder would see, show here.</div>
        )}
      </div>
    </div>
  );
}
