// Preloaded (`node --import`) into a CLI process: sends the process SIGTERM from inside the stdout write that says it
// is ready, the earliest moment a supervisor reading that line could stop it. A process that installs its signal
// handlers only after that write dies of the signal instead of shutting down cleanly.
const READY = /listening on |worker \S+ started/;
const write = process.stdout.write.bind(process.stdout);
let sent = false;
process.stdout.write = (chunk, ...rest) => {
  const result = write(chunk, ...rest);
  if (!sent && READY.test(String(chunk))) {
    sent = true;
    process.kill(process.pid, 'SIGTERM');
  }
  return result;
};
