/**
 * Enter pressed in the composer while the session is still being read (a reload of the pi
 * fixture with a slower CPU): the message goes out once the session is there, exactly once, and
 * its text is neither lost nor left in the box.
 */
import { expect, test } from "@playwright/test";
import { compactionSettings, composerInput, setUpProvider, waitIdle } from "./agent-helpers.ts";
import { getChatRequests, scriptReplies, uniqueKey } from "./mock/client.ts";
import { AppPage } from "./pages/app-page.ts";

test.setTimeout(120_000);

const MESSAGE = "Typed before the session was read";

declare global {
  interface Window {
    /** Whether the Send button was still off (the session not yet read) when Enter was pressed. */
    __enterWhileReading?: boolean;
  }
}

test("Enter pressed while the session is still being read sends the message once it is there, once", async ({
  page,
}) => {
  const key = uniqueKey("early-enter");
  const app = new AppPage(page);
  await app.goto();
  await setUpProvider(page, key);
  // The fixture is larger than the mock model's window: no compaction stands before the message.
  await compactionSettings(page, { mode: "off", window: 400_000 });
  await app.importPiFixture();
  await app.open(/alright, read @packages\/coding-agent/);
  await expect(composerInput(page)).toBeEnabled();
  await scriptReplies(key, [{ text: "Read it." }]);

  // From the reload's first frame on: as soon as the composer is there, type and press Enter
  // (in one frame: a person quicker than the read). The Send button says whether the session
  // was still being read then.
  await page.addInitScript((text) => {
    const tick = () => {
      const input = document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]');
      const sendButton = input?.form?.querySelector<HTMLButtonElement>('button[type="submit"]');
      if (!input || !sendButton || input.disabled) {
        requestAnimationFrame(tick);
        return;
      }
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")!.set!.call(input, text);
      input.dispatchEvent(new Event("input", { bubbles: true }));
      window.__enterWhileReading = sendButton.disabled;
      input.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true }));
    };
    requestAnimationFrame(tick);
  }, MESSAGE);
  // A slower CPU: the read takes long enough for the composer to be there before it ends.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await page.reload();
  await expect.poll(() => page.evaluate(() => window.__enterWhileReading)).toBe(true);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });

  // Sent once the session is there: the message in the timeline and in the request, the box empty.
  await expect(page.getByTestId("timeline").getByText(MESSAGE)).toBeVisible({ timeout: 60_000 });
  await waitIdle(page);
  await expect(composerInput(page)).toHaveValue("");
  const chats = await getChatRequests(key);
  expect(chats).toHaveLength(1);
  expect(JSON.stringify(chats[0]!.body)).toContain(MESSAGE);
  // Exactly once: one user entry with the text, after the reply too.
  await expect(page.getByTestId("timeline").getByText("Read it.")).toBeVisible();
  await expect(page.getByTestId("timeline").getByText(MESSAGE)).toHaveCount(1);
});
