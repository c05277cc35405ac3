"""The call stack panel: the user's highlight selects a frame; the app's own choice of
frame (after every stop, frame 0) is not undone by the highlight messages it causes."""
from __future__ import annotations

from textual.app import App, ComposeResult
from textual.reactive import reactive

from hsx.tui.model import Frame
from hsx.tui.widgets.stack import StackView

from tuikit import run


def frames(*functions: str) -> tuple[Frame, ...]:
    return tuple(Frame(index=i, pc=0x100 * (i + 1), sp=0, fp=0, function=name)
                 for i, name in enumerate(functions))


class StackApp(App):
    """Holds the stack and the selected frame as the debugger does, data-bound."""
    frames: reactive[tuple[Frame, ...]] = reactive(())
    frame: reactive[int] = reactive(0)

    def __init__(self) -> None:
        super().__init__()
        self.selected: list[int] = []

    def compose(self) -> ComposeResult:
        yield StackView().data_bind(StackApp.frames, StackApp.frame)

    def on_stack_view_frame_selected(self, message: StackView.FrameSelected) -> None:
        self.selected.append(message.index)
        self.frame = message.index

    def stop_at(self, new_frames: tuple[Frame, ...]) -> None:
        """What a refresh after a stop does: the new stack, then frame 0."""
        self.frames = new_frames
        self.frame = 0


def test_moving_the_highlight_selects_that_frame():
    async def scenario():
        app = StackApp()
        async with app.run_test() as pilot:
            app.stop_at(frames("square", "sum_squares", "main"))
            await pilot.pause()
            app.query_one(StackView).focus()
            await pilot.press("down", "down")
            await pilot.pause()
            assert app.selected == [1, 2] and app.frame == 2
    run(scenario)


def test_a_stop_after_the_user_chose_an_outer_frame_shows_frame_0():
    async def scenario():
        app = StackApp()
        async with app.run_test() as pilot:
            stack = app.query_one(StackView)
            app.stop_at(frames("square", "sum_squares", "main"))
            await pilot.pause()
            stack.highlighted = 1                      # the user looks at the caller
            await pilot.pause()
            assert app.selected == [1] and app.frame == 1
            app.stop_at(frames("exit", "_start"))      # the task runs on and stops
            await pilot.pause()
            await pilot.pause()
            assert app.selected == [1]
            assert app.frame == 0 and stack.highlighted == 0
    run(scenario)
