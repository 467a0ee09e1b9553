/**
 * One row of the session list: the session's name and what is known of it, opened by a click when
 * it is here, and its actions in a slot (Rename/Export/Delete here; Fetch for one only on the sync target).
 */
import type { ReactNode } from "react";
import { markInvisible } from "../common/invisible.ts";
import { SafeText } from "../common/safe-text.tsx";

export interface SessionItemProps {
  id: string;
  title: string;
  /** The lines under the name (size, entries, where it is). */
  details: ReactNode;
  /** The row's buttons, at its end. */
  actions: ReactNode;
  /** Opens the session; without it the name is not a button (a session not on this device). */
  onOpen?: () => void;
  current?: boolean;
  /** Classes beside "session-item", and the test id, of a row of another kind. */
  className?: string;
  testId?: string;
}

export function SessionItem({
  id,
  title,
  details,
  actions,
  onOpen,
  current,
  className,
  testId,
}: SessionItemProps) {
  const name = <SafeText className="session-name" text={title} />;
  return (
    <li
      className={className ? `session-item ${className}` : "session-item"}
      aria-current={current}
      data-session-id={id}
      data-testid={testId}
    >
      {onOpen ? (
        <button type="button" className="session-open" onClick={onOpen} title={markInvisible(title)}>
          {name}
          {details}
        </button>
      ) : (
        <div className="session-open">
          {name}
          {details}
        </div>
      )}
      <span className="session-tools">{actions}</span>
    </li>
  );
}
