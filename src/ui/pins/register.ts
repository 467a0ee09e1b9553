/** Mounts pins and summary instructions into the shell (imported once by src/main.tsx). */
import { registerSlot } from "../shell/slots.ts";
// One small module with the Pins button (the composer and the review import it too): the settings
// section comes with it; its dialogs load on demand from inside it.
import { PinsButton, SummaryInstructionsSettings } from "./pins-controls.tsx";
import "./pins.css";

registerSlot("sessionMenu", PinsButton, "pins");
registerSlot("settings", SummaryInstructionsSettings, "summary-instructions");
