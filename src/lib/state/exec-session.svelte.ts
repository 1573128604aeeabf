import { consoleSocket, type ConsoleSocket } from '$lib/client/socket';

export type ExecStatus = 'starting' | 'running' | 'ended' | 'refused';

/** A resize goes out once the terminal has kept its size this long (dragging sends many). */
const RESIZE_SETTLE_MS = 120;

/**
 * One interactive exec session over the console's socket: started on demand, fed keystrokes,
 * resized, closed. A dropped socket ends it on the server (a shell's state cannot survive), so
 * a reconnect is an explicit new session. Browser only.
 */
export class ExecSession {
  status = $state<ExecStatus>('starting');
  /** Why the session ended or was refused, in words; "exit N" when the command exited. */
  message = $state<string | null>(null);

  #execId: string | null = null;
  #socket: ConsoleSocket | null = null;
  #resizeTimer: ReturnType<typeof setTimeout> | undefined;
  #off: (() => void) | null = null;

  constructor(
    private readonly target: { engine: string; container: string; cmd?: string[] },
    private readonly output: (data: string) => void
  ) {}

  start(cols: number, rows: number): void {
    const socket = (this.#socket ??= consoleSocket());
    this.#listen(socket);
    this.status = 'starting';
    this.message = null;
    this.#execId = null;
    socket.emit('exec.start', { ...this.target, tty: true, cols, rows }, (result) => {
      if (!result.ok) {
        this.status = 'refused';
        this.message = result.error;
        return;
      }
      // The component went away, or another start began, while this one was on its way.
      if (this.status !== 'starting' || !this.#off) {
        socket.emit('exec.close', { execId: result.execId });
        return;
      }
      this.#execId = result.execId;
      this.status = 'running';
    });
  }

  input(data: string): void {
    if (this.status === 'running' && this.#execId)
      this.#socket?.emit('exec.input', { execId: this.#execId, data });
  }

  resize(cols: number, rows: number): void {
    clearTimeout(this.#resizeTimer);
    this.#resizeTimer = setTimeout(() => {
      if (this.status === 'running' && this.#execId)
        this.#socket?.emit('exec.resize', { execId: this.#execId, cols, rows });
    }, RESIZE_SETTLE_MS);
  }

  /** Ends the session (the tab or the component closes) and frees the listeners. */
  dispose(): void {
    clearTimeout(this.#resizeTimer);
    if (this.status === 'running' && this.#execId)
      this.#socket?.emit('exec.close', { execId: this.#execId });
    this.#off?.();
    this.#off = null;
    this.status = 'ended';
  }

  #listen(socket: ConsoleSocket): void {
    if (this.#off) return;
    const onOutput = ({ execId, data }: { execId: string; data: string }) => {
      if (execId === this.#execId) this.output(data);
    };
    const onEnded = (ended: { execId: string; exitCode?: number; reason: string }) => {
      if (ended.execId !== this.#execId) return;
      this.status = 'ended';
      this.message = ended.exitCode === undefined ? ended.reason : `exit ${String(ended.exitCode)}`;
    };
    const onDisconnect = () => {
      if (this.status !== 'running' && this.status !== 'starting') return;
      this.status = 'ended';
      this.message = 'the connection to Berth was lost';
    };
    socket.on('exec.output', onOutput);
    socket.on('exec.ended', onEnded);
    socket.on('disconnect', onDisconnect);
    this.#off = () => {
      socket.off('exec.output', onOutput);
      socket.off('exec.ended', onEnded);
      socket.off('disconnect', onDisconnect);
    };
  }
}
