/**
 * The HSX debugger extension: the `hsx` debug type is served by `hsx dap` (started from
 * the configured Python environment), the Run and Debug container gets views of the
 * executive's tasks, mailboxes and values, and commands record its timeline.
 */
import * as vscode from "vscode";
import { AdapterCommand, AdapterNotFound, findAdapter } from "./python";
import { registerTimeline } from "./timeline";
import { registerViews } from "./views";

const DEBUGGABLE_LANGUAGES = new Set(["c", "mvasm"]);

/** Starts `hsx dap` on stdio for each debug session. */
class AdapterFactory implements vscode.DebugAdapterDescriptorFactory {
  /** Adapters found before, by setting and folders: the probe costs a Python start-up. */
  private readonly found = new Map<string, AdapterCommand>();

  createDebugAdapterDescriptor(session: vscode.DebugSession): vscode.DebugAdapterDescriptor {
    const pythonPath = vscode.workspace.getConfiguration("hsx", session.workspaceFolder).get<string>("pythonPath", "");
    const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath);
    const key = JSON.stringify([pythonPath, folders]);
    try {
      const adapter = this.found.get(key) ?? findAdapter(pythonPath, folders);
      this.found.set(key, adapter);
      const cwd = session.configuration.cwd ?? session.workspaceFolder?.uri.fsPath;
      return new vscode.DebugAdapterExecutable(adapter.command, adapter.args, cwd ? { cwd } : {});
    } catch (error) {
      if (error instanceof AdapterNotFound)
        void vscode.window.showErrorMessage(error.message, "Open Settings").then((choice) => {
          if (choice) void vscode.commands.executeCommand("workbench.action.openSettings", "hsx.pythonPath");
        });
      throw error;
    }
  }
}

/** Fills in a configuration for F5 without a launch.json, and refuses incomplete ones. */
class ConfigurationProvider implements vscode.DebugConfigurationProvider {
  resolveDebugConfiguration(
    _folder: vscode.WorkspaceFolder | undefined,
    config: vscode.DebugConfiguration,
  ): vscode.ProviderResult<vscode.DebugConfiguration> {
    if (!config.type && !config.request && !config.name) {
      const editor = vscode.window.activeTextEditor;
      if (!editor || !DEBUGGABLE_LANGUAGES.has(editor.document.languageId)) {
        void vscode.window.showErrorMessage("HSX: open a .c or .mvasm file to debug, or add a launch.json configuration.");
        return undefined;
      }
      return { type: "hsx", request: "launch", name: "HSX: debug the current file", program: "${file}" };
    }
    if (config.request === "launch" && !config.program) {
      void vscode.window.showErrorMessage('HSX: a "launch" configuration needs "program" (a .c, .mvasm or .hxe file).');
      return undefined;
    }
    if (config.request === "attach" && config.pid === undefined && !config.app) {
      void vscode.window.showErrorMessage('HSX: an "attach" configuration needs "pid" or "app" (see `hsx shell ps`).');
      return undefined;
    }
    return config;
  }
}

export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory("hsx", new AdapterFactory()),
    vscode.debug.registerDebugConfigurationProvider("hsx", new ConfigurationProvider()),
  );
  registerViews(context);
  registerTimeline(context);
}

export function deactivate(): void {}
