"""The ``shangrao`` command line (typer + rich).

Commands: ``analyze``, ``score`` (:mod:`.analysis_cmds`); ``simulate``
(:mod:`.simulate`); ``play`` (:mod:`.play`, narration in :mod:`.narrate`);
``games``, ``replay``, ``abandon`` (:mod:`.records_cmds`); ``serve`` (:mod:`.serve_cmd`).

Errors: a bad input (:class:`shangrao.errors.InputError`, bad JSON, an unreadable file, a usage
error) prints ONE line ``error: <what and where>`` on stderr and exits 2, never a traceback
(:class:`ShangraoGroup`).  Ctrl-C exits 130.  Anything else — an
:class:`~shangrao.errors.InternalError` or an unexpected exception, even a plain ``ValueError`` — is a
bug: one line saying so, with a hint to file it, and exit 1; ``SHANGRAO_DEBUG=1`` shows the traceback.
"""

from __future__ import annotations

import errno
import json
import sys
import traceback
import warnings
from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperGroup

try:  # typer >= 0.22 vendors click privately; older typer depends on click
    from typer._click import exceptions as _cx
except ImportError:  # pragma: no cover
    from click import exceptions as _cx  # type: ignore[no-redef]

from ..errors import InputError
from .common import EXIT_BAD_INPUT, EXIT_INTERRUPTED, debug_enabled, error_line

__all__ = ["app", "main"]


def _err(line: str) -> None:
    try:
        sys.stderr.write(line.rstrip("\n") + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


class ShangraoGroup(TyperGroup):
    """Runs a command and turns every failure into one stderr line and an exit code."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        code = self._run(args, prog_name, complete_var, **extra)
        if standalone_mode:
            sys.exit(code)
        return code

    def _run(self, args: Sequence[str] | None, prog_name: str | None, complete_var: str | None, **extra: Any) -> int:
        # an outside bot's fault is logged (one line on stderr); its ExternalBotWarning would print it
        # a second time with a source line (issue 34)
        warnings.filterwarnings("ignore", message="outside bot ", category=UserWarning)
        try:
            rv = super().main(
                args=args, prog_name=prog_name or "shangrao", complete_var=complete_var, standalone_mode=False, **extra
            )
        except _cx.UsageError as err:
            if type(err).__name__ == "NoArgsIsHelpError" and err.ctx is not None:
                sys.stdout.write(err.ctx.get_help() + "\n")
                return 0
            hint = ""
            if err.ctx is not None:
                hint = f" (see '{err.ctx.command_path} --help')"
            _err(f"error: {' '.join(err.format_message().split())}{hint}")
            return EXIT_BAD_INPUT
        except _cx.ClickException as err:
            _err(f"error: {' '.join(err.format_message().split())}")
            return err.exit_code
        except typer.Abort:
            return EXIT_INTERRUPTED
        except KeyboardInterrupt:
            _err("interrupted")
            return EXIT_INTERRUPTED
        except BrokenPipeError:
            sys.stderr = open(__import__("os").devnull, "w")  # noqa: SIM115
            return 1
        except (InputError, json.JSONDecodeError, OSError, UnicodeError) as err:  # bad input
            if isinstance(err, OSError) and err.errno == errno.EPIPE:
                return 1
            if debug_enabled():
                traceback.print_exc()
            _err(f"error: {error_line(err)}")
            return EXIT_BAD_INPUT
        except Exception as err:  # an internal error: one line unless SHANGRAO_DEBUG
            if debug_enabled():
                traceback.print_exc()
            _err(
                f"internal error (a bug in shangrao, please file it with the command you ran and the output of "
                f"SHANGRAO_DEBUG=1): {type(err).__name__}: {error_line(err)}"
            )
            return 1
        if isinstance(rv, int) and not isinstance(rv, bool):
            return rv
        return 0


def _fit_help_to_80_columns() -> None:
    """Two adjustments of typer's rich help so that every ``--help`` reads whole at 80 columns.

    * An option's help is laid out as a rich ``Columns`` of one item, which crops a line it
      measures too wide (with CJK text: ``'none' fo…``); it is printed as plain wrapped lines.
    * A flag (``--json``) takes no value, so it shows no ``<bool>`` type as if it took one.
    * A number range shows as ``<int> [1..10000000]`` or ``<int> [>=0]``, not
      ``<int range> [1<=x<=10000000]``: that wide type column squeezed the help beside it into a
      column a few words wide at 80 columns (issue 38).

    Both patch typer internals; if typer changes them the help is only less tidy.
    """
    try:
        from rich.console import Group
        from rich.text import Text
        from typer import core, rich_utils
    except ImportError:  # pragma: no cover
        return
    original_help = getattr(rich_utils, "_get_parameter_help", None)
    if original_help is not None and not getattr(original_help, "_shangrao", False):

        def _parameter_help(*args: Any, **kwargs: Any) -> Any:
            columns = original_help(*args, **kwargs)
            items = list(getattr(columns, "renderables", [columns]))
            for item in items:
                if isinstance(item, Text):
                    item.overflow = "fold"
            return Group(*items)

        _parameter_help._shangrao = True  # type: ignore[attr-defined]
        rich_utils._get_parameter_help = _parameter_help
    option: Any = getattr(core, "TyperOption", None)
    original_type = getattr(option, "display_type_rich", None)
    if option is not None and original_type is not None and not getattr(original_type, "_shangrao", False):

        def _display_type(self: Any, ctx: Any) -> Any:
            if getattr(self, "is_flag", False) and not getattr(self, "count", False):
                return None
            shown = original_type(self, ctx)
            return shown.replace(" range>", ">") if isinstance(shown, str) and self.metavar is None else shown

        _display_type._shangrao = True  # type: ignore[attr-defined]
        option.display_type_rich = _display_type
    original_range = getattr(option, "_get_number_range_help_str", None)
    if option is not None and original_range is not None and not getattr(original_range, "_shangrao", False):

        def _range(self: Any) -> Any:
            shown = original_range(self)
            if not shown or getattr(self, "count", False):
                return shown
            lo, hi = getattr(self, "min", None), getattr(self, "max", None)
            if (
                lo is not None
                and hi is not None
                and not getattr(self, "min_open", False)
                and not getattr(self, "max_open", False)
            ):
                return f"{lo}..{hi}"
            return shown.replace("x>=", ">=").replace("x<=", "<=").replace("x>", ">").replace("x<", "<")

        _range._shangrao = True  # type: ignore[attr-defined]
        option._get_number_range_help_str = _range


_fit_help_to_80_columns()

app = typer.Typer(
    cls=ShangraoGroup,
    name="shangrao",
    help="Shangrao Mahjong (上饶麻将): analyse hands, score wins, simulate and play games, browse records.",
    epilog="Exit codes: 0 done; 1 replay mismatch or an internal error; 2 bad input (one 'error:' line); "
    "3 serve could not start (e.g. the port is in use); 130 Ctrl-C.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

from . import analysis_cmds

analysis_cmds.register(app)

from . import play, records_cmds, simulate

app.command("simulate")(simulate.simulate)
app.command("play")(play.play)
app.command("games")(records_cmds.games)
app.command("replay")(records_cmds.replay_cmd)
app.command("abandon")(records_cmds.abandon_cmd)
app.command("backup")(records_cmds.backup)

from . import advise_cmd, arena_cmd, dataset_cmd, review_cmd, serve_cmd

arena_cmd.register(app)
dataset_cmd.register(app)
advise_cmd.register(app)
review_cmd.register(app)

serve_cmd.register(app)


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point (``shangrao = "shangrao.cli:main"``)."""
    app(args=argv, prog_name="shangrao")
