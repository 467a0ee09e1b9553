// Preloaded into the CLI by the bench (node --import): at exit, prints the process's CPU time and peak RSS to stderr as one line.
process.on("exit", () => {
  const u = process.resourceUsage();
  process.stderr.write(
    `\nBENCH ${JSON.stringify({ cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, peakMB: u.maxRSS / 1024 })}\n`,
  );
});
