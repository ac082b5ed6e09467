"""The rendered systemd unit: this installation's zonkcam, no root unless asked, every
argument reaching zonkcam exactly as given, and the sandbox (tested as text: there is no
Pi here; systemd-analyze checks the syntax where it is installed)."""

from __future__ import annotations

import os
import pwd
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from zonkcam.cli import main

USER = "nobody"


def unit(capsys, *play_args: str, user: str = USER, extra: tuple[str, ...] = ()) -> str:
    assert main(["install-service", "--print", "--user", user, *extra, "--", *play_args]) == 0
    return capsys.readouterr().out


def directives(text: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            out.setdefault(key, []).append(value)
    return out


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "s": " "}


def systemd_words(line: str) -> list[str]:
    """ExecStart= split as systemd.service(5) 'Command lines' says: words on whitespace,
    double quotes with C escapes, %% for %, $$ for $, a lone \\; for ;."""
    words, i = [], 0
    while i < len(line):
        if line[i] == " ":
            i += 1
            continue
        if line.startswith("\\;", i):
            words.append(";")
            i += 2
            continue
        assert line[i] == '"', f"unquoted word at {line[i:]!r}"
        i += 1
        word = ""
        while line[i] != '"':
            if line[i] == "\\":
                nxt = line[i + 1]
                if nxt == "x":
                    word += chr(int(line[i + 2 : i + 4], 16))
                    i += 4
                    continue
                word += _ESCAPES[nxt]
                i += 2
                continue
            if line[i] in "%$":
                assert line[i + 1] == line[i], f"unescaped {line[i]} in {line!r}"
                i += 1
            word += line[i]
            i += 1
        words.append(word)
        i += 1
    return words


def test_the_service_runs_this_installation_not_the_first_zonkcam_on_path(
    capsys, tmp_path, monkeypatch
):
    other = tmp_path / "zonkcam"
    other.write_text("#!/bin/sh\necho another zonkcam\n")
    other.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    (exec_start,) = directives(unit(capsys))["ExecStart"]
    words = systemd_words(exec_start)
    assert words[:4] == [os.path.abspath(sys.executable), "-m", "zonkcam", "play"]
    assert str(other) not in exec_start


def test_root_is_refused_unless_asked(capsys, monkeypatch):
    monkeypatch.delenv("SUDO_USER", raising=False)
    root = pwd.getpwuid(0).pw_name
    assert main(["install-service", "--print", "--user", root]) == 2
    err = capsys.readouterr().err
    assert "the service would run as root" in err and "--allow-root" in err
    if os.geteuid() == 0:  # as root without sudo: the invoking user is root
        assert main(["install-service", "--print"]) == 2
        assert "would run as root" in capsys.readouterr().err
    assert directives(unit(capsys, user=root, extra=("--allow-root",)))["User"] == [root]


@pytest.mark.parametrize(
    "arg",
    [
        "Ann\nExecStartPre=/bin/rm -rf /home",
        "%h",
        "$HOME",
        "${HOME}",
        "100%",
        'say "hi"',
        "back\\slash",
        ";",
        "a;b",
        "tab\there",
        "Zoë 🎲",
        " spaced ",
        "",
        "\x1b[31m",
    ],
)
def test_every_argument_reaches_zonkcam_as_given(capsys, arg):
    text = unit(capsys, "--players", "Ann", arg)
    found = directives(text)
    assert "ExecStartPre" not in found  # a newline injects nothing
    assert all(
        line == "" or line.startswith(("#", "[")) or "=" in line for line in text.splitlines()
    )
    (exec_start,) = found["ExecStart"]
    assert systemd_words(exec_start)[4:] == ["--source", "pi", "--players", "Ann", arg]


def test_the_service_plays_the_camera_never_the_demo(capsys):
    """`--source auto` falls back to the demo table when the camera does not start: at a
    real table the demo's players would play on the game log."""
    (exec_start,) = directives(unit(capsys, "--rules", "chicago"))["ExecStart"]
    assert systemd_words(exec_start)[4:] == ["--source", "pi", "--rules", "chicago"]
    (exec_start,) = directives(unit(capsys, "--source", "usb:1"))["ExecStart"]
    assert systemd_words(exec_start)[4:] == ["--source", "usb:1"]
    text = unit(capsys)
    assert "every start resumes the game in play" in text


def test_paths_are_escaped_too(capsys):
    found = directives(unit(capsys, "--db", "/srv/our games/100%.db"))
    assert found["ReadWritePaths"] == [
        f'"-{pwd.getpwnam(USER).pw_dir}/.local/share/zonkcam" '
        f'"-{pwd.getpwnam(USER).pw_dir}/.config/zonkcam" "-/srv/our games"'
    ]
    assert main(["install-service", "--print", "--user", USER, "--", "--db", '/srv/a"b/g.db']) == 2
    assert "choose one without quotes" in capsys.readouterr().err


SANDBOX = {
    "NoNewPrivileges": "yes",
    "CapabilityBoundingSet": "",
    "RestrictSUIDSGID": "yes",
    "ProtectSystem": "strict",
    "ProtectHome": "read-only",
    "PrivateTmp": "yes",
    "ProtectKernelTunables": "yes",
    "ProtectKernelModules": "yes",
    "ProtectKernelLogs": "yes",
    "ProtectControlGroups": "yes",
    "ProtectHostname": "yes",
    "ProtectProc": "invisible",
    "RestrictNamespaces": "yes",
    "LockPersonality": "yes",
    "RestrictRealtime": "yes",
    "RestrictAddressFamilies": "AF_UNIX AF_NETLINK",
    "SystemCallArchitectures": "native",
    "UMask": "0077",
}


def test_the_sandbox_keeps_the_devices_open(capsys):
    found = directives(unit(capsys))
    assert {k: found[k][0] for k in SANDBOX} == SANDBOX
    # camera, GPIO, screen, input and sound are device files: nothing may close /dev
    for closing in ("PrivateDevices", "DevicePolicy", "DeviceAllow", "ProtectClock", "ProcSubset"):
        assert closing not in found
    # and nothing may reach a network
    assert found["PrivateNetwork"] == ["yes"] and found["IPAddressDeny"] == ["any"]
    assert found["SystemCallFilter"] == ["@system-service", "~@privileged"]
    assert found["SystemCallErrorNumber"] == ["EPERM"] and found["PrivateMounts"] == ["yes"]
    assert found["SupplementaryGroups"] == ["video render input gpio audio"]
    assert found["StateDirectory"] == ["zonkcam"]  # lgpio's pipes: the working directory
    assert "XDG_CACHE_HOME=/var/lib/zonkcam/cache" in found["Environment"]  # home: read-only


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_systemd_reads_the_unit_without_a_warning(capsys, tmp_path):
    # systemd warns about the user nobody itself: any other user who is not root will do
    user = next((p.pw_name for p in pwd.getpwall() if 0 < p.pw_uid < 65534), None)
    if user is None:
        pytest.skip("no user but root and nobody")
    path = tmp_path / "zonkcam.service"
    path.write_text(unit(capsys, "--players", "Ann", "Bob\nX=1", "%h", "$HOME", ";", user=user))
    proc = subprocess.run(
        ["systemd-analyze", "verify", str(path)], capture_output=True, text=True, timeout=60
    )
    warnings = [
        x for x in (proc.stdout + proc.stderr).splitlines() if re.search(r"zonkcam\.service:\d+", x)
    ]
    assert proc.returncode == 0 and warnings == [], proc.stderr


def test_installing_makes_the_game_log_folder(tmp_path, monkeypatch, capsys):
    from zonkcam.commands import install_service

    monkeypatch.setattr(install_service, "UNIT_PATH", tmp_path / "zonkcam.service")
    home = tmp_path / "home"
    home.mkdir()
    me = pwd.getpwuid(os.getuid())
    fake = pwd.struct_passwd((me.pw_name, "x", me.pw_uid, me.pw_gid, "", str(home), "/bin/sh"))
    monkeypatch.setattr(install_service.pwd, "getpwnam", lambda name: fake)
    assert main(["install-service", "--allow-root", "--user", me.pw_name]) == 0
    assert (home / ".local" / "share" / "zonkcam").is_dir()
    text = (tmp_path / "zonkcam.service").read_text()
    assert f'ReadWritePaths="-{home}/.local/share/zonkcam"' in text


def _a_user() -> str | None:
    """A user who is neither root nor nobody (systemd judges both on their own)."""
    return next((p.pw_name for p in pwd.getpwall() if 0 < p.pw_uid < 65534), None)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_the_units_exposure_is_at_most_2_5(capsys, tmp_path):
    user = _a_user()
    if user is None:
        pytest.skip("no user but root and nobody")
    path = tmp_path / "zonkcam.service"
    path.write_text(unit(capsys, user=user))
    proc = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    found = re.search(r"Overall exposure level for zonkcam\.service: ([0-9.]+)", proc.stdout)
    assert found, proc.stdout[-500:] + proc.stderr
    assert float(found.group(1)) <= 2.5


def test_the_game_log_the_service_opens_is_the_one_it_may_write(capsys, tmp_path, monkeypatch):
    """A relative --db is taken from where install-service runs (the service runs in
    /var/lib/zonkcam), an abbreviated option as play reads it, and the calibration's and
    screenshots' folders are writable too (the taught dice live beside the calibration)."""
    monkeypatch.chdir(tmp_path)
    home = pwd.getpwnam(USER).pw_dir
    for args, db, rest in [
        (
            ["--db", "games.db"],
            tmp_path / "games.db",
            ["--db", "games.db", "--db", str(tmp_path / "games.db")],
        ),
        (["--d", "/srv/z/g.db"], Path("/srv/z/g.db"), ["--d", "/srv/z/g.db"]),
        (
            ["--db=~/zonk/g.db"],
            Path(home) / "zonk" / "g.db",
            ["--db=~/zonk/g.db", "--db", f"{home}/zonk/g.db"],
        ),
    ]:
        found = directives(unit(capsys, *args))
        assert systemd_words(found["ExecStart"][0])[4:] == ["--source", "pi", *rest]
        paths = found["ReadWritePaths"][0].split()
        assert f'"-{db.parent}"' in paths, paths
        assert f'"-{home}/.config/zonkcam"' in paths and f'"-{home}/.local/share/zonkcam"' in paths
    found = directives(unit(capsys, "--calibration", "cal/c.json", "--screenshots", "shots"))
    words = systemd_words(found["ExecStart"][0])
    assert words[-4:] == [
        "--screenshots",
        str(tmp_path / "shots"),
        "--calibration",
        str(tmp_path / "cal" / "c.json"),
    ]
    paths = found["ReadWritePaths"][0].split()
    assert f'"-{tmp_path / "cal"}"' in paths and f'"-{tmp_path / "shots"}"' in paths
    (tmp_path / "ours.toml").write_text('base = "chicago"\n')
    words = systemd_words(directives(unit(capsys, "--rules", "ours.toml"))["ExecStart"][0])
    assert words[-2:] == ["--rules", str(tmp_path / "ours.toml")]
    words = systemd_words(directives(unit(capsys, "--rules", "chicago"))["ExecStart"][0])
    assert words[4:] == ["--source", "pi", "--rules", "chicago"]


@pytest.mark.parametrize(
    ("args", "wanted"),
    [(["--bogus"], "unrecognized arguments: --bogus"), (["--threads", "0"], "--threads")],
)
def test_arguments_play_would_refuse_are_refused_in_one_line(capsys, args, wanted):
    assert main(["install-service", "--print", "--user", USER, "--", *args]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and wanted in err
    assert err.startswith("zonkcam install-service: the service's arguments for zonkcam play:")


@pytest.mark.parametrize(
    ("args", "refused"),
    [
        (["--screenshots", "/"], "/"),
        (["--db", "/games.sqlite3"], "/"),
        (["--db", "/etc/zonkcam/g.db"], "/etc/zonkcam"),
        (["--calibration", "/usr/share/c.json"], "/usr/share"),
        (["--screenshots", "/lib64"], "/lib64"),
        (["--screenshots", "/var"], "/var"),
        (["--db", "/run/g.db"], "/run"),
        (["--screenshots", "/home"], "/home"),
        (["--db", "~/g.db"], "HOME"),  # ProtectHome=read-only: the home stays read-only
        (["--screenshots", "LINK"], "/"),  # a link is judged by where it leads
    ],
)
def test_a_system_folder_or_the_home_is_never_made_writable(capsys, tmp_path, args, refused):
    home = pwd.getpwnam(USER).pw_dir
    (tmp_path / "link").symlink_to("/")
    args = [str(tmp_path / "link") if a == "LINK" else a for a in args]
    assert main(["install-service", "--print", "--user", USER, "--", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1, err
    wanted = home if refused == "HOME" else refused
    assert f"the service cannot be let write to {wanted} for {args[0]}" in err
    assert "give a folder of its own" in err


def test_folders_of_their_own_stay_writable(capsys):
    for args, folder in [
        (["--db", "/var/lib/zonkcam/g.db"], "/var/lib/zonkcam"),
        (["--screenshots", "/srv/zonk/shots"], "/srv/zonk/shots"),
        (["--calibration", "/run/media/pi/CARD/c.json"], "/run/media/pi/CARD"),
    ]:
        paths = directives(unit(capsys, *args))["ReadWritePaths"][0].split()
        assert f'"-{folder}"' in paths and '"-/"' not in paths
