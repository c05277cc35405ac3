"""`PanelArea`: a bordered part of the screen showing one of its panels at a time.  The
other panels are tabs in the border's title (click one, or `ctrl+right`/`ctrl+left`
while inside), so an area costs one line of chrome however many panels it holds."""
from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.containers import Vertical
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import ContentSwitcher

from ..layout import PANELS

SEPARATOR = " │ "


class PanelArea(Vertical):
    DEFAULT_CSS = """
    PanelArea { border: round $primary 50%; border-title-color: $text-muted;
                height: 1fr; width: 1fr; }
    PanelArea:focus-within { border: round $accent; border-title-color: $text; }
    PanelArea > ContentSwitcher { height: 1fr; }
    PanelArea > ContentSwitcher > * { height: 1fr; }
    """
    BINDINGS = [Binding("ctrl+right", "cycle(1)", "Next tab", show=False),
                Binding("ctrl+left", "cycle(-1)", "Previous tab", show=False)]

    active: reactive[str] = reactive("", init=False)

    def __init__(self, panels: dict[str, Widget], *, active: str | None = None,
                 id: str | None = None) -> None:
        super().__init__(id=id)
        self.panels = panels
        self.set_reactive(PanelArea.active, active if active in panels else next(iter(panels)))
        self._put_aside: str | None = None    # the panel `show_instead` replaced

    def compose(self):
        yield ContentSwitcher(*self.panels.values(), initial=self.active)

    def on_mount(self) -> None:
        self._title()

    def watch_active(self, panel: str) -> None:
        self.query_one(ContentSwitcher).current = panel
        self._title()

    def show(self, panel: str, *, focus: bool = True) -> None:
        """Bring `panel` forward (the user's choice: it stays)."""
        self._put_aside = None
        self._bring(panel, focus)

    def show_instead(self, panel: str, *, focus: bool) -> None:
        """Bring `panel` forward for the time being (the app's choice: the source has no
        line here); `restore` puts back the panel it replaced."""
        if self.active != panel:
            self._put_aside = self._put_aside or self.active
            self._bring(panel, focus)

    def restore(self, *, focus: bool) -> None:
        """The panel `show_instead` replaced, forward again -- unless the user chose
        a tab since."""
        panel, self._put_aside = self._put_aside, None
        if panel is not None:
            self._bring(panel, focus)

    def _bring(self, panel: str, focus: bool) -> None:
        self.active = panel
        if focus:
            widget = self.panels[panel]
            widget.focus() if widget.can_focus else widget.query("*").first().focus()

    def action_cycle(self, step: int) -> None:
        names = list(self.panels)
        self.show(names[(names.index(self.active) + step) % len(names)])

    def _title(self) -> None:
        parts = [f"[b]{PANELS[p]}[/]" if p == self.active else f"[dim]{PANELS[p]}[/]"
                 for p in self.panels]
        self.border_title = SEPARATOR.join(parts)

    def on_click(self, event: events.Click) -> None:
        """A click on a tab in the border title shows that panel."""
        if event.y != 0 or len(self.panels) < 2:
            return
        x = event.x - 2                       # the border corner and the title's padding
        for panel in self.panels:
            width = len(PANELS[panel])
            if 0 <= x < width:
                self.show(panel)
                return
            x -= width + len(SEPARATOR)
