export function App() {
  return <main>Cutpoint</main>;
}
