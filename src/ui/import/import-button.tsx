/** "Import…" opens the file picker (several .jsonl files at once). */
import { useRef } from "react";
import { useImportFiles } from "./use-import.ts";

export function ImportButton({
  className = "btn",
  label = "Import…",
}: {
  className?: string;
  label?: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const importFiles = useImportFiles();
  return (
    <>
      <button type="button" className={className} onClick={() => input.current?.click()}>
        {label}
      </button>
      <input
        ref={input}
        type="file"
        accept=".jsonl,application/x-ndjson,application/jsonl,text/plain"
        multiple
        hidden
        aria-label="Import session files"
        data-testid="import-input"
        onChange={(e) => {
          const files = Array.from(e.currentTarget.files ?? []);
          e.currentTarget.value = "";
          if (files.length > 0) void importFiles(files);
        }}
      />
    </>
  );
}
