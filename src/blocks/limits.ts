/*
 * Slack's Block Kit limits, in one place. Builders cut their texts with `clipPlain`/`clipMd` (mrkdwn.ts) against these
 * constants; `checkBlockKit` verifies a whole payload (the Slack double runs it on every payload the
 * bot sends, and answers `invalid_blocks` as Slack does).
 * https://api.slack.com/reference/block-kit/blocks · https://api.slack.com/reference/surfaces/views
 */
export const limits = {
  messageBlocks: 50,
  viewBlocks: 100,
  sectionText: 3000,
  sectionFields: 10,
  fieldText: 2000,
  headerText: 150,
  /** An image block's alt text: https://docs.slack.dev/reference/block-kit/blocks/image-block */
  imageAltText: 2000,
  imageTitle: 2000,
  contextElements: 10,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  url: 3000,
  optionText: 75,
  optionValue: 75,
  selectOptions: 100,
  overflowOptions: 5,
  checkboxOptions: 10,
  viewTitle: 24,
  viewButton: 24,
  privateMetadata: 3000,
  inputLabel: 2000,
  hint: 2000,
  placeholder: 150,
  blockId: 255,
  actionId: 255,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  messageText: 40_000,
  /** Slack truncates longer message texts in places: https://api.slack.com/methods/chat.postMessage#truncating */
  messageTextAdvised: 4_000,
} as const;

/**
 * The largest media file Slack takes in its upload flow: "1 GB" (files up to 1 GB can be
 * uploaded: https://slack.com/help/articles/201330736-Add-files-to-Slack). Counted in decimal bytes,
 * the lower reading, so a file that passes here is never refused for its size by Slack.
 */
export const slackFileMaxBytes = 1_000_000_000;

export type Surface = 'message' | 'modal' | 'home';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const textOf = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : isObj(v) && typeof v.text === 'string' ? v.text : undefined;

/**
 * Every limit a payload breaks, as readable problems (empty when it is valid). `payload` is a message
 * (`{text, blocks}`) or a view (`{type:'modal'|'home', blocks, title…}`).
 */
export function checkBlockKit(payload: unknown, surface: Surface): string[] {
  const problems: string[] = [];
  const too = (what: string, value: string | undefined, max: number) => {
    if (value !== undefined && value.length > max)
      problems.push(`${what} is ${value.length} chars (max ${max})`);
  };
  if (!isObj(payload)) return ['payload is not an object'];
  const blocks = Array.isArray(payload.blocks) ? (payload.blocks as unknown[]) : [];
  if (surface === 'message') {
    if (typeof payload.text !== 'string' || payload.text.length === 0)
      problems.push('message has no fallback text');
    too('message text', textOf(payload.text), limits.messageText);
    if (blocks.length > limits.messageBlocks)
      problems.push(`${blocks.length} blocks (max ${limits.messageBlocks})`);
  } else {
    if (blocks.length > limits.viewBlocks)
      problems.push(`${blocks.length} blocks (max ${limits.viewBlocks})`);
    if (surface === 'modal') {
      const title = textOf(payload.title);
      if (!title) problems.push('modal has no title');
      too('modal title', title, limits.viewTitle);
      too('modal submit', textOf(payload.submit), limits.viewButton);
      too('modal close', textOf(payload.close), limits.viewButton);
      const hasInput = blocks.some((b) => isObj(b) && b.type === 'input');
      if (hasInput && !payload.submit) problems.push('modal with inputs has no submit button');
    }
    too('private_metadata', payload.private_metadata as string | undefined, limits.privateMetadata);
  }

  const blockIds = new Set<string>();
  const actionIds = new Set<string>();
  // Slack wants action ids unique within their block; buttons and menus are also routed by action id,
  // so theirs must be unique in the whole payload. An input's action id is read under its block id.
  const element = (e: unknown, where: string, ids: Set<string> = actionIds) => {
    if (!isObj(e)) return;
    if (typeof e.action_id === 'string') {
      too(`${where} action_id`, e.action_id, limits.actionId);
      if (ids.has(e.action_id)) problems.push(`action_id "${e.action_id}" is used twice`);
      ids.add(e.action_id);
    }
    if (e.type === 'button') {
      const t = textOf(e.text);
      if (!t) problems.push(`${where} button has no text`);
      too(`${where} button text`, t, limits.buttonText);
      too(`${where} button value`, e.value as string | undefined, limits.buttonValue);
      too(`${where} button url`, e.url as string | undefined, limits.url);
    }
    too(`${where} placeholder`, textOf(e.placeholder), limits.placeholder);
    if (Array.isArray(e.options)) {
      const max =
        e.type === 'overflow'
          ? limits.overflowOptions
          : e.type === 'checkboxes' || e.type === 'radio_buttons'
            ? limits.checkboxOptions
            : limits.selectOptions;
      if (e.options.length > max) problems.push(`${where} has ${e.options.length} options (max ${max})`);
      if (e.options.length === 0) problems.push(`${where} has no options`);
      for (const o of e.options as unknown[]) {
        if (!isObj(o)) continue;
        too(`${where} option text`, textOf(o.text), limits.optionText);
        too(`${where} option value`, o.value as string | undefined, limits.optionValue);
      }
      const values = new Set((e.options as Json[]).map((o) => o.value));
      const initial = [e.initial_option, ...(Array.isArray(e.initial_options) ? e.initial_options : [])];
      for (const i of initial)
        if (isObj(i) && !values.has(i.value))
          problems.push(`${where} initial option is not one of its options`);
    }
    if (isObj(e.confirm)) {
      too(`${where} confirm title`, textOf(e.confirm.title), limits.confirmTitle);
      too(`${where} confirm text`, textOf(e.confirm.text), limits.confirmText);
      too(`${where} confirm button`, textOf(e.confirm.confirm), limits.confirmButton);
      too(`${where} deny button`, textOf(e.confirm.deny), limits.confirmButton);
    }
  };

  for (const [i, b] of blocks.entries()) {
    const where = `block ${i}`;
    if (!isObj(b)) {
      problems.push(`${where} is not an object`);
      continue;
    }
    if (typeof b.block_id === 'string') {
      too(`${where} block_id`, b.block_id, limits.blockId);
      if (blockIds.has(b.block_id)) problems.push(`block_id "${b.block_id}" is used twice`);
      blockIds.add(b.block_id);
    }
    switch (b.type) {
      case 'header':
        too(`${where} header`, textOf(b.text), limits.headerText);
        break;
      case 'section': {
        const fields = Array.isArray(b.fields) ? b.fields : [];
        if (!textOf(b.text) && fields.length === 0)
          problems.push(`${where} section has neither text nor fields`);
        too(`${where} text`, textOf(b.text), limits.sectionText);
        if (fields.length > limits.sectionFields)
          problems.push(`${where} has ${fields.length} fields (max 10)`);
        for (const f of fields) too(`${where} field`, textOf(f), limits.fieldText);
        element(b.accessory, where);
        break;
      }
      case 'actions': {
        const els = Array.isArray(b.elements) ? b.elements : [];
        if (els.length === 0 || els.length > limits.actionsElements)
          problems.push(`${where} has ${els.length} elements (1 to ${limits.actionsElements})`);
        for (const e of els) element(e, where);
        break;
      }
      case 'context': {
        const els = Array.isArray(b.elements) ? b.elements : [];
        if (els.length === 0 || els.length > limits.contextElements)
          problems.push(`${where} has ${els.length} elements (1 to ${limits.contextElements})`);
        for (const e of els) too(`${where} context text`, textOf(e), limits.sectionText);
        break;
      }
      case 'input':
        if (surface === 'message') problems.push(`${where}: input blocks belong in views`);
        too(`${where} label`, textOf(b.label), limits.inputLabel);
        too(`${where} hint`, textOf(b.hint), limits.hint);
        element(b.element, where, new Set());
        break;
      case 'image': {
        // alt_text is required; the image is an image_url or a slack_file (by id or url), never both.
        const alt = typeof b.alt_text === 'string' ? b.alt_text : '';
        if (!alt) problems.push(`${where} image has no alt_text`);
        too(`${where} alt_text`, alt, limits.imageAltText);
        too(`${where} image title`, textOf(b.title), limits.imageTitle);
        too(`${where} image_url`, b.image_url as string | undefined, limits.url);
        const file = isObj(b.slack_file) ? b.slack_file : undefined;
        if ((b.image_url === undefined) === (file === undefined))
          problems.push(`${where} image needs an image_url or a slack_file, not both`);
        if (file && (file.id === undefined) === (file.url === undefined))
          problems.push(`${where} slack_file needs an id or a url, not both`);
        break;
      }
      case 'divider':
      case 'rich_text':
        break;
      default:
        problems.push(`${where} has an unknown type "${String(b.type)}"`);
    }
  }
  return problems;
}
