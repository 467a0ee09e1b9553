/** Mounts the session tree into the shell (imported once by src/main.tsx). */
import { registerSlot } from "../shell/slots.ts";
import { TreeControls } from "./tree-controls.tsx";
import "./tree.css";

registerSlot("sessionActions", TreeControls, "tree");
