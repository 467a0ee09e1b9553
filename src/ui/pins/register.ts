/** Mounts pins and summary instructions into the shell (imported once by src/main.tsx). */
import { registerSlot } from "../shell/slots.ts";
import { PinsButton, SummaryInstructionsSettings } from "./pins-controls.tsx";
import "./pins.css";

registerSlot("sessionActions", PinsButton, "pins");
registerSlot("settings", SummaryInstructionsSettings, "summary-instructions");
