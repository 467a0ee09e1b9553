/** Mounts pins and summary instructions into the shell (imported once by src/main.tsx). */
import { registerLazySlot, registerSlot } from "../shell/slots.ts";
import { PinsButton } from "./pins-controls.tsx";
import "./pins.css";

registerSlot("sessionActions", PinsButton, "pins");
registerLazySlot(
  "settings",
  () => import("./pins-controls.tsx"),
  (m) => m.SummaryInstructionsSettings,
  "summary-instructions",
);
