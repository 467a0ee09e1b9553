/** A part's own frame (a panel, a dialog): where a boundary shows its message for a part rendered in a portal. */
import type { ComponentType, ReactNode } from "react";

export type Frame = ComponentType<{ children: ReactNode }>;

/** `content` inside `frame`, or as it is without one. */
export function framed(frame: Frame | undefined, content: ReactNode): ReactNode {
  const Frame = frame;
  return Frame ? <Frame>{content}</Frame> : content;
}
