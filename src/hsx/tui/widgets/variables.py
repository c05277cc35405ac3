"""The locals and watch panels: values as a tree -- structs, unions, arrays and pointers
expand (read lazily with `variables.expand`), and a value that differs from the previous
stop is highlighted.  Expanded rows stay expanded from stop to stop."""
from __future__ import annotations

from rich.text import Text
from textual import work
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from ..model import Scope, Variable
from ..target import ConnectionClosed, ProtocolError, Target

PAGE = 100                        # array elements read at a time
GLOBALS = "globals"               # the key of the Globals branch (its rows: "globals/NAME")


class VariablesView(Tree[Variable]):
    DEFAULT_CSS = """
    VariablesView { background: $surface; padding: 0; }
    """

    BINDINGS = [Binding("e", "edit", "Set value")]

    scope: reactive[Scope] = reactive(Scope(), init=False)

    class Edit(Message):
        """The user wants to store a new value into `variable`."""

        def __init__(self, variable: Variable) -> None:
            super().__init__()
            self.variable = variable

    def __init__(self, target: Target, *, id: str | None = None) -> None:
        super().__init__("values", id=id)
        self.show_root = False
        self.guide_depth = 2
        self.target = target
        self.expanded_keys: set[str] = set()
        self._previous: dict[str, str] = {}     # key -> value at the previous stop
        self._shown: dict[str, str] = {}        # key -> value now
        self._stop = -1
        self._building = False

    def watch_scope(self, scope: Scope) -> None:
        if scope.stop != self._stop:
            self._previous, self._stop = {**self._previous, **self._shown}, scope.stop
        self._shown = {}
        self._rebuild(scope)

    @work(exclusive=True, group="variables")
    async def _rebuild(self, scope: Scope) -> None:
        """Read the children of expanded rows first, then replace the tree at once."""
        children: dict[str, list[Variable]] = {}
        pending = [v for v in scope.items + scope.globals if v.key in self.expanded_keys]
        while pending:
            variable = pending.pop()
            if variable.ref and variable.key not in children:
                kids = await self._children(variable)
                children[variable.key] = kids
                pending += [k for k in kids if k.key in self.expanded_keys]
        self._building = True
        try:
            self.clear()
            if scope.note and not scope.items:
                self.root.add_leaf(Text(scope.note, style="dim italic"))
            self._add(self.root, scope.items, children)
            if scope.globals:
                group = Variable(GLOBALS, "Globals", f"{len(scope.globals)}",
                                 children=len(scope.globals))
                node = self.root.add(Text.assemble(("Globals", "bold"),
                                                   (f" ({len(scope.globals)})", "dim")),
                                     data=group, expand=GLOBALS in self.expanded_keys)
                self._add(node, scope.globals, children)
        finally:
            self._building = False
        if self.has_focus:
            self._ensure_cursor()

    def on_focus(self) -> None:
        self._ensure_cursor()

    def _ensure_cursor(self) -> None:
        """A cursor on the first row when there is none (a new tree has none, and
        Enter or Space did nothing until an arrow key put one there)."""
        if self.cursor_line < 0 and self.root.children:
            self.cursor_line = 0

    def _add(self, parent: TreeNode[Variable], items, children) -> None:
        for variable in items:
            self._shown[variable.key] = variable.value
            if variable.children and variable.ref:
                node = parent.add(self._label(variable), data=variable)
                if variable.key in children:
                    self._add(node, children[variable.key], children)
                    node.expand()
            else:
                parent.add_leaf(self._label(variable), data=variable)

    async def _children(self, variable: Variable) -> list[Variable]:
        try:
            reply = await self.target.expand(variable.ref, 0, PAGE)
        except (ProtocolError, ConnectionClosed) as error:
            return [Variable(f"{variable.key}/!", "error", str(error), error=True)]
        items = [Variable.from_reply(item, variable) for item in reply["variables"]]
        if reply.get("total", 0) > len(items):
            items.append(Variable(f"{variable.key}/…", "…",
                                  f"{reply['total'] - len(items)} more", error=True))
        return items

    def _label(self, variable: Variable) -> Text:
        changed = variable.key in self._previous and self._previous[variable.key] != variable.value
        text = Text()
        text.append(variable.name, style="bold" if not variable.error else "dim")
        text.append(" = ", style="dim")
        style = "bold black on yellow" if changed else (
            "dim italic" if not variable.available or variable.error else "")
        text.append(variable.value, style=style)
        if variable.type:
            text.append(f"  {variable.type}", style="dim cyan")
        return text

    def changed_keys(self) -> set[str]:
        """Keys of the rows whose value differs from the previous stop."""
        return {key for key, value in self._shown.items()
                if key in self._previous and self._previous[key] != value}

    # ------------------------------------------------------------------ expanding

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[Variable]) -> None:
        event.stop()
        variable = event.node.data
        if variable is None or self._building:
            return
        self.expanded_keys.add(variable.key)
        if not event.node.children:
            self._load(event.node)

    def on_tree_node_collapsed(self, event: Tree.NodeCollapsed[Variable]) -> None:
        event.stop()
        if event.node.data is not None and not self._building:
            self.expanded_keys.discard(event.node.data.key)

    @work(group="expand")
    async def _load(self, node: TreeNode[Variable]) -> None:
        assert node.data is not None
        self._add(node, await self._children(node.data), {})

    def action_edit(self) -> None:
        node = self.cursor_node
        if node is not None and node.data is not None and node.data.expr and not node.data.error:
            self.post_message(self.Edit(node.data))


class WatchesView(VariablesView):
    """The watch expressions: `delete` removes the one under the cursor."""

    BINDINGS = [Binding("delete,backspace", "remove", "Remove watch")]

    class Remove(Message):
        def __init__(self, expr: str) -> None:
            super().__init__()
            self.expr = expr

    def action_remove(self) -> None:
        node = self.cursor_node
        while node is not None and node.parent is not None and node.parent is not self.root:
            node = node.parent
        if node is not None and node.data is not None:
            self.post_message(self.Remove(node.data.name))
