/**
 * What pi 1.6 does with the pins when it continues this session, said plainly, and Cutpoint's
 * pins extension for pi to download with the one folder that installs it (docs/pi.md).
 */

/** The extension as the app serves it (public/pi/cutpoint-pins.js). */
export const PINS_EXTENSION_URL = `${import.meta.env.BASE_URL}pi/cutpoint-pins.js`;
export const PINS_EXTENSION_FOLDER = "~/.pi/agent/extensions/";

export function PinsInPi() {
  return (
    <section className="pins-in-pi" data-testid="pins-in-pi" aria-labelledby="pins-in-pi-title">
      <h3 id="pins-in-pi-title">When pi continues this session</h3>
      <p data-testid="pins-without-extension">
        <b>Without Cutpoint's extension, pi 1.6 drops every pin</b> on its first request: it rebuilds its
        prompt and removes the sections it did not write, and saves that removal in the session, so the pins
        are gone here too when you open the file again. pi keeps its own tools either way.
      </p>
      <p>
        <b>With the extension</b>, pi sends the pins with every request and keeps them through its own
        compactions; an unpin here is honoured there.
      </p>
      <p className="pins-in-pi-install">
        <a className="btn small" href={PINS_EXTENSION_URL} download="cutpoint-pins.js">
          Download the pi extension
        </a>{" "}
        then put <code>cutpoint-pins.js</code> in <code>{PINS_EXTENSION_FOLDER}</code> (pi loads every file
        there, for every project).
      </p>
    </section>
  );
}
