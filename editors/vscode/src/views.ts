/**
 * The HSX views in the Run and Debug container: the executive's tasks, mailboxes and
 * values, fetched from the active `hsx` session with the adapter's custom requests
 * (`hsx/tasks`, `hsx/mailboxes`, `hsx/values`) and refreshed when the debuggee stops.
 */
import * as vscode from "vscode";
import { Node, mailboxNodes, taskNodes, valueNodes } from "./format";

type Fetch = (session: vscode.DebugSession) => Promise<Node[]>;

/** The three views' fetchers: one custom request each. */
export const FETCHERS: Record<string, Fetch> = {
  "hsx.tasks": async (session) => taskNodes((await session.customRequest("hsx/tasks")).tasks ?? []),
  "hsx.mailboxes": async (session) =>
    mailboxNodes((await session.customRequest("hsx/mailboxes")).descriptors ?? []),
  "hsx.values": async (session) => {
    const body = await session.customRequest("hsx/values");
    return valueNodes(body.values ?? [], body.commands ?? []);
  },
};

/** One tree view whose top level is refetched on `refresh()`. */
class ExecutiveView implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly fetch: Fetch) {}

  refresh(): void {
    this.changed.fire();
  }

  getTreeItem(node: Node): vscode.TreeItem {
    const item = new vscode.TreeItem(
      node.label,
      node.children?.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    item.description = node.description;
    item.tooltip = node.tooltip;
    if (node.icon) item.iconPath = new vscode.ThemeIcon(node.icon);
    return item;
  }

  async getChildren(node?: Node): Promise<Node[]> {
    if (node) return node.children ?? [];
    const session = vscode.debug.activeDebugSession;
    if (!session || session.type !== "hsx") return [];
    try {
      return await this.fetch(session);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return [{ label: "not available", description: message, tooltip: message, icon: "warning" }];
    }
  }
}

/** DAP events after which what the views show may have changed. */
const REFRESHING_EVENTS = new Set(["stopped", "continued", "thread", "exited", "terminated", "initialized"]);

/** Registers the views, their refresh command, and the tracker that refreshes them. */
export function registerViews(context: vscode.ExtensionContext): void {
  const views = Object.entries(FETCHERS).map(([id, fetch]) => {
    const view = new ExecutiveView(fetch);
    context.subscriptions.push(vscode.window.registerTreeDataProvider(id, view));
    return view;
  });
  let pending: NodeJS.Timeout | undefined;
  const refresh = () => {
    // Events come in bursts (a stop, then threads, then output): refetch once per burst.
    if (pending) clearTimeout(pending);
    pending = setTimeout(() => {
      pending = undefined;
      views.forEach((view) => view.refresh());
    }, 100);
  };
  context.subscriptions.push(
    vscode.commands.registerCommand("hsx.refreshViews", refresh),
    vscode.debug.onDidChangeActiveDebugSession(refresh),
    vscode.debug.onDidTerminateDebugSession(refresh),
    vscode.debug.registerDebugAdapterTrackerFactory("hsx", {
      createDebugAdapterTracker: () => ({
        onDidSendMessage: (message: { type?: string; event?: string }) => {
          if (message.type === "event" && message.event && REFRESHING_EVENTS.has(message.event)) refresh();
        },
      }),
    }),
  );
}
