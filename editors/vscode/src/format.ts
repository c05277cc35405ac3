/**
 * How the HSX views show the executive's tasks, mailboxes and values: plain data, no
 * `vscode` import, so the shaping is tested with mocha outside VS Code.
 */

/** One row of a tree view; `children` make it expandable. */
export interface Node {
  label: string;
  description?: string;
  tooltip?: string;
  icon?: string;
  children?: Node[];
}

/** A `ps` row, as `hsx/tasks` returns it (only the fields shown here). */
export interface TaskRow {
  pid: number;
  app_name?: string;
  state: string;
  pc?: number;
  priority?: number;
  instructions?: number;
  exit_status?: number | null;
  locked_by?: string | null;
  wait?: { kind: string; handle?: number; deadline?: number; ms?: number; oid?: number };
  fault?: { kind: string; pc?: number; addr?: number; message?: string };
}

export interface MailboxDescriptor {
  descriptor_id: number;
  target: string;
  owner_pid?: number;
  capacity?: number;
  bytes_used?: number;
  queue_depth?: number;
  readers?: { pid: number; handle: number; pending: number }[];
  waiters?: number[];
  taps?: { pid: number; handle: number; depth: number }[];
}

export interface ValueRow {
  oid: number;
  name?: string;
  group_name?: string;
  owner_pid?: number;
  last_value?: number | string;
  unit?: string;
  flags?: number;
  min?: number;
  max?: number;
  persist_mode?: number;
}

export interface CommandRow {
  oid: number;
  name?: string;
  group_name?: string;
  owner_pid?: number;
  help?: string;
}

const hex = (n: number | undefined, width = 4): string =>
  n === undefined ? "?" : "0x" + n.toString(16).padStart(width, "0");

/** What a task is waiting for, in words ("" when it is not waiting). */
export function waitText(wait: TaskRow["wait"]): string {
  if (!wait) return "";
  switch (wait.kind) {
    case "mailbox":
      return `mailbox handle ${wait.handle}`;
    case "sleep":
      return wait.ms !== undefined ? `sleep ${wait.ms} ms` : "sleep";
    case "command":
      return `command ${hex(wait.oid)}`;
    default:
      return wait.kind;
  }
}

/** Codicons for the executive's task states (hsx.kernel.states.TaskState). */
const STATE_ICONS: Record<string, string> = {
  ready: "play",
  running: "play",
  waiting_mbx: "mail",
  sleeping: "clock",
  waiting_cmd: "watch",
  paused: "debug-pause",
  returned: "pass",
  faulted: "error",
  killed: "close",
};

/** One node per task: "PID app" with its state, waits and faults underneath. */
export function taskNodes(rows: TaskRow[]): Node[] {
  return rows.map((row) => {
    const details: Node[] = [{ label: "state", description: row.state }];
    if (row.pc !== undefined) details.push({ label: "pc", description: hex(row.pc) });
    if (row.priority !== undefined) details.push({ label: "priority", description: String(row.priority) });
    if (row.instructions !== undefined)
      details.push({ label: "instructions", description: row.instructions.toLocaleString("en-US") });
    const waiting = waitText(row.wait);
    if (waiting) details.push({ label: "waiting for", description: waiting });
    if (row.exit_status !== undefined && row.exit_status !== null)
      details.push({ label: "exit status", description: String(row.exit_status) });
    if (row.fault)
      details.push({
        label: "fault",
        description: `${row.fault.kind} at ${hex(row.fault.pc)}`,
        tooltip: row.fault.message,
      });
    if (row.locked_by) details.push({ label: "locked by", description: row.locked_by });
    const state = waiting ? `${row.state} (${waiting})` : row.state;
    return {
      label: `${row.pid} ${row.app_name ?? "?"}`,
      description: state,
      tooltip: `PID ${row.pid}, ${row.app_name ?? "no name"}: ${state}`,
      icon: row.fault ? "error" : STATE_ICONS[row.state] ?? "circle-outline",
      children: details,
    };
  });
}

/** One node per mailbox: its target with fill level; readers, waiters and taps underneath. */
export function mailboxNodes(descriptors: MailboxDescriptor[]): Node[] {
  return descriptors.map((d) => {
    const depth = d.queue_depth ?? 0;
    const children: Node[] = [
      { label: "owner", description: d.owner_pid === undefined ? "?" : `PID ${d.owner_pid}` },
      { label: "queued", description: `${depth} messages, ${d.bytes_used ?? 0}/${d.capacity ?? "?"} bytes` },
    ];
    for (const r of d.readers ?? [])
      children.push({ label: `reader PID ${r.pid}`, description: `handle ${r.handle}, ${r.pending} pending` });
    if (d.waiters && d.waiters.length)
      children.push({ label: "waiting", description: d.waiters.map((pid) => `PID ${pid}`).join(", ") });
    for (const t of d.taps ?? [])
      children.push({ label: `tap PID ${t.pid}`, description: `handle ${t.handle}, ${t.depth} queued` });
    return {
      label: d.target,
      description: `${depth} queued`,
      tooltip: `mailbox ${d.descriptor_id}: ${d.target}`,
      icon: "mail",
      children,
    };
  });
}

function valueText(row: ValueRow): string {
  const value = row.last_value === undefined ? "?" : String(row.last_value);
  return row.unit ? `${value} ${row.unit}` : value;
}

const qualified = (row: { oid: number; name?: string; group_name?: string }): string =>
  row.name ? (row.group_name ? `${row.group_name}.${row.name}` : row.name) : hex(row.oid);

/** Values with their current reading, then the commands, each under a heading. */
export function valueNodes(values: ValueRow[], commands: CommandRow[]): Node[] {
  const valueChildren: Node[] = values.map((row) => ({
    label: qualified(row),
    description: valueText(row),
    tooltip:
      `oid ${hex(row.oid)}, owner PID ${row.owner_pid ?? "?"}` +
      (row.min !== undefined || row.max !== undefined ? `, range ${row.min ?? "-inf"}..${row.max ?? "inf"}` : ""),
    icon: "symbol-number",
  }));
  const commandChildren: Node[] = commands.map((row) => ({
    label: qualified(row),
    description: `PID ${row.owner_pid ?? "?"}`,
    tooltip: row.help ? `${hex(row.oid)}: ${row.help}` : hex(row.oid),
    icon: "symbol-event",
  }));
  return [
    { label: "Values", description: String(values.length), icon: "symbol-number", children: valueChildren },
    { label: "Commands", description: String(commands.length), icon: "symbol-event", children: commandChildren },
  ];
}
