"""Fuzzing the command line's option readers: ``--bao`` (:func:`parse_bao`, one tile or ``none``)
and ``--bots`` (:func:`parse_bots`, bot specs: names, ``policy:PATH``, ``ext:COMMAND``): random and
mutated values either read or raise :class:`~shangrao.cli.common.CliError` (an
:class:`~shangrao.errors.InputError`, a ``ValueError``) naming the option.  Never another exception."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shangrao.bots import BOTS
from shangrao.cli.analysis_cmds import parse_bao
from shangrao.cli.common import CliError
from shangrao.cli.simulate import parse_bots
from shangrao.errors import InputError

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(
    st.one_of(
        st.text(max_size=12),
        st.sampled_from(["5p", "none", "NULL", "-", " ", "", "5p5p", "东", "8z"]),
        st.text(alphabet="0123456789mpsz 东中白板none", max_size=6),
    )
)
def test_fuzz_bao_option_reads_one_tile_or_none_or_raises_cli_error(text):
    try:
        bao = parse_bao(text)
    except CliError as err:
        assert isinstance(err, InputError) and str(err).startswith("--bao: ")
    else:
        assert bao is None or 0 <= bao <= 33


specs = st.one_of(
    st.sampled_from(
        [
            *BOTS,
            "Greedy",
            " random ",
            "policy:",
            "policy:.",
            "policy:/",
            "policy:/no/such.npz",
            "ext:",
            "ext:/no/such/program",
            'ext:"unclosed',
            "ext: ",
            "",
            "greedy greedy",
        ]
    ),
    st.text(max_size=10),
    st.builds(
        lambda p, t: p + t,
        st.sampled_from(["policy:", "ext:", "POLICY:", "Ext:"]),
        st.text(alphabet="abc./\\ \"'-*", max_size=8),
    ),
)


@FUZZ
@given(st.lists(specs, min_size=1, max_size=5), st.sampled_from([",", ", ", ",,", "，", ";"]))
def test_fuzz_bots_option_reads_four_specs_or_raises_cli_error(names, sep):
    text = sep.join(names)
    try:
        bots = parse_bots(text)
    except CliError as err:
        assert isinstance(err, InputError) and str(err).startswith("--bots: ")
    else:
        assert len(bots) == 4
