/**
 * Counts the person's clicks and key presses, so that work that ends late (a move's write, then
 * focus back on its control) can tell whether they have moved on since it began.
 */
let inputs = 0;
if (typeof window !== "undefined") {
  const count = () => {
    inputs++;
  };
  window.addEventListener("pointerdown", count, true);
  window.addEventListener("keydown", count, true);
}

/** How many clicks and key presses there have been so far; compare two stamps to see if any came between. */
export function inputStamp(): number {
  return inputs;
}
