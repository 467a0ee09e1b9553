// Cutpoint's pins for pi 1.6: keeps the session's pinned instructions in pi's prompt at every run.
//
// Cutpoint (the browser app this file came from) stores a pin as a section of the
// session's system prompt named "pin-…". pi 1.6 rebuilds its prompt before every run and removes
// sections it did not build itself, so without this extension pi drops every pin on its first
// request. This extension hands pi the pins the session holds as its own custom prompt sections,
// before every run (pi's `before_agent_start`), so pi keeps them; a compaction by pi carries them
// too, since its system checkpoint replays the prompt. An unpin in Cutpoint removes the section,
// and pi then drops it as well.
//
// Install: copy this file to ~/.pi/agent/extensions/ (every project), or to .pi/extensions/ in a
// project, or try it once with `pi -e ./cutpoint-pins.js`. It reads the session and changes nothing
// else: no network, no files, no other part of the prompt.

const PIN_SECTION = /^pin-[a-z0-9_-]*$/;

/** The sections of the prompt the session's context replays, as pi replays them (null removes). */
function replayedSections(messages) {
  const sections = new Map();
  for (const message of messages) {
    if (message?.role !== "system" || !message.sections) continue;
    for (const [name, value] of Object.entries(message.sections)) {
      if (value === null) sections.delete(name);
      else if (typeof value === "string") sections.set(name, value);
    }
  }
  return sections;
}

/** The pinned text of a section value: inside tags named after the section (or older <pinned> tags). */
function pinnedText(name, value) {
  for (const tag of [name, "pinned"]) {
    const open = `<${tag}>\n`;
    const close = `\n</${tag}>`;
    if (value.length >= open.length + close.length && value.startsWith(open) && value.endsWith(close))
      return value.slice(open.length, value.length - close.length);
  }
  return value;
}

/** The session's pins: section name -> pinned text, in prompt order. */
export function sessionPins(sessionManager) {
  const pins = {};
  const projection = sessionManager.buildSessionProjection();
  for (const [name, value] of replayedSections(projection.messages)) {
    if (PIN_SECTION.test(name) && value !== "") pins[name] = pinnedText(name, value);
  }
  return pins;
}

export default function cutpointPins(pi) {
  pi.on("before_agent_start", (event, ctx) => {
    // pi renders a custom section as <name>\ntext\n</name>, the form Cutpoint writes, so a pin
    // Cutpoint wrote is kept as it is and an older one is rewritten once in that form.
    Object.assign(event.systemPromptOptions.sections, sessionPins(ctx.sessionManager));
  });
}
