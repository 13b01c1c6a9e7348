"""An unknown RTOS, board or metric id is one line, status 2, naming the closest known id."""
from helpers import assert_one_line_error, default_metrics, transcript
from test_run import images
from test_report import make_results


def test_unknown_rtos_id_suggests_the_closest(cli):
    r = cli("run", "--rtos", "freertoss", "--no-build", "-q")
    assert_one_line_error(r, 2)
    assert "did you mean 'freertos'?" in r.err


def test_unknown_board_id_suggests_the_closest(cli):
    r = cli("check", "--board", "vp-m00", "--no-build", "-q")
    assert_one_line_error(r, 2)
    assert "did you mean 'vp-m0'?" in r.err


def test_unknown_metric_in_tests_suggests_the_closest(cli, fake_vp, tmp_path):
    args = images(tmp_path, rtoslab={"stdout": transcript("rtoslab", default_metrics("rtoslab"))})
    r = cli("run", *args, "--tests", "rhealstone.task_swich", "--json", tmp_path / "o.json", "-q")
    assert_one_line_error(r, 2)
    assert "did you mean 'rhealstone.task_switch'?" in r.err
    r = cli("run", *args, "--tests", "rhealston.*", "--json", tmp_path / "o.json", "-q")
    assert_one_line_error(r, 2)
    assert "did you mean 'rhealstone'?" in r.err


def test_unknown_metric_in_history_suggests_the_closest(cli, tmp_path):
    db = tmp_path / "h.sqlite"
    assert cli("history", "--db", db, "--add", make_results(tmp_path / "a.json")).status == 0
    r = cli("history", "rhealstone.task_swich", "--db", db)
    assert_one_line_error(r, 2)
    assert "did you mean 'rhealstone.task_switch'?" in r.err
