/**
 * The executive's timeline from VS Code: "HSX: Start Timeline Recording" and "HSX: Stop
 * Timeline Recording and Save…" (a Perfetto trace to open in ui.perfetto.dev, Chrome
 * JSON, or the values as a VCD for a waveform viewer), through the adapter's
 * `hsx/timeline` request on the active `hsx` session.
 */
import * as path from "node:path";
import * as vscode from "vscode";

/** The active hsx session, or undefined after telling the user to start one. */
function hsxSession(): vscode.DebugSession | undefined {
  const session = vscode.debug.activeDebugSession;
  if (session && session.type === "hsx") return session;
  void vscode.window.showErrorMessage("HSX: start or attach a debug session first (the timeline is the executive's).");
  return undefined;
}

async function timeline(session: vscode.DebugSession, op: string, args: object = {}): Promise<any> {
  return session.customRequest("hsx/timeline", { op, ...args });
}

export async function startTimeline(): Promise<void> {
  const session = hsxSession();
  if (!session) return;
  try {
    await timeline(session, "start");
    void vscode.window.showInformationMessage("HSX: recording what every task does (Stop Timeline Recording saves it).");
  } catch (error) {
    void vscode.window.showErrorMessage(`HSX: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export async function stopTimeline(): Promise<void> {
  const session = hsxSession();
  if (!session) return;
  try {
    const status = await timeline(session, "stop");
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
    const target = await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.file(path.join(folder, "timeline.pftrace")),
      filters: { "Perfetto trace": ["pftrace"], "Chrome JSON trace": ["json"], "Values as signals (VCD)": ["vcd"] },
      title: `Save the timeline (${status.records} records)`,
    });
    if (!target) return;
    const written = await timeline(session, "export", { path: target.fsPath });
    const hint = written.format === "vcd" ? "open it in GTKWave or Surfer" : "open it in ui.perfetto.dev";
    void vscode.window.showInformationMessage(`HSX: wrote ${written.events} events to ${written.path} (${hint}).`);
  } catch (error) {
    void vscode.window.showErrorMessage(`HSX: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function registerTimeline(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand("hsx.startTimeline", startTimeline),
    vscode.commands.registerCommand("hsx.stopTimeline", stopTimeline),
  );
}
