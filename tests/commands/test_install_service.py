"""The rendered systemd unit: this installation's zonkcam, no root unless asked, every
argument reaching zonkcam exactly as given, and the sandbox (tested as text: there is no
Pi here; systemd-analyze checks the syntax where it is installed); the console's system
service or the desktop's user unit and autostart entry, as the machine (faked) tells."""

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
from zonkcam.commands import install_service
from zonkcam.hardware.service import Machine

USER = "nobody"

CONSOLE = Machine(environ={}, default_target="multi-user.target", console_screen=True)
"""Raspberry Pi OS Lite: no desktop, the screen's DRM device."""


@pytest.fixture(autouse=True)
def on_a_console(monkeypatch):
    """Every test here runs on a faked Pi OS Lite unless it fakes another machine."""
    monkeypatch.setattr(install_service, "machine", lambda: CONSOLE)


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


# -- the console or the desktop ----------------------------------------------------------------

LABWC = Machine(
    environ={},
    running=frozenset({"systemd", "lightdm", "labwc", "Xwayland", "pipewire"}),
    default_target="graphical.target",
    display_manager="lightdm",
    session="LXDE-pi-labwc",
    session_driver="wayland",
    console_screen=True,
)
"""Raspberry Pi OS with desktop (Bookworm), logged in: labwc holds the screen."""


@pytest.mark.parametrize(
    ("machine", "kind", "driver", "why"),
    [
        (CONSOLE, "console", "kmsdrm", "no desktop runs or starts at boot"),
        (LABWC, "desktop", "wayland", "labwc (a Wayland desktop) is running"),
        (
            Machine(environ={}, running=frozenset({"wayfire"}), console_screen=True),
            "desktop",
            "wayland",
            "wayfire",
        ),
        (
            Machine(environ={}, running=frozenset({"Xorg", "lxsession"}), console_screen=True),
            "desktop",
            "x11",
            "Xorg",
        ),
        # installed over ssh before anyone logged in: the desktop that starts at boot
        (
            Machine(
                environ={},
                default_target="graphical.target",
                display_manager="lightdm",
                session="LXDE-pi-x",
                session_driver="x11",
                console_screen=True,
            ),
            "desktop",
            "x11",
            "lightdm starts the X11 desktop LXDE-pi-x at boot",
        ),
        # run in the desktop's terminal where /proc shows nothing of others
        (Machine(environ={"WAYLAND_DISPLAY": "wayland-0"}), "desktop", "wayland", "wayland-0"),
        (Machine(environ={"DISPLAY": ":0"}), "desktop", "x11", "DISPLAY=:0"),
        # an ssh session's forwarded X is not the Pi's screen
        (
            Machine(environ={"DISPLAY": "localhost:10.0"}, console_screen=True),
            "console",
            "kmsdrm",
            "console",
        ),
        # the desktop is installed but the Pi boots to the console (raspi-config)
        (
            Machine(
                environ={},
                default_target="multi-user.target",
                display_manager="lightdm",
                session="LXDE-pi-labwc",
                session_driver="wayland",
                console_screen=True,
            ),
            "console",
            "kmsdrm",
            "multi-user.target",
        ),
    ],
)
def test_the_screen_is_the_desktops_where_one_holds_it_else_the_consoles(
    machine, kind, driver, why
):
    from zonkcam.hardware.service import find_screen

    screen = find_screen(machine)
    assert (screen.kind, screen.driver) == (kind, driver)
    assert why in screen.why


def test_what_is_running_and_set_up_is_read_from_the_machine(tmp_path):
    from zonkcam.hardware.service import find_screen, look_around

    root = tmp_path
    for pid, name in [(1, "systemd"), (700, "lightdm"), (912, "labwc"), (950, "Xwayland")]:
        (root / "proc" / str(pid)).mkdir(parents=True)
        (root / "proc" / str(pid) / "comm").write_text(name + "\n")
    (root / "proc" / "self").mkdir()
    system = root / "etc" / "systemd" / "system"
    system.mkdir(parents=True)
    (system / "default.target").symlink_to("/lib/systemd/system/graphical.target")
    (system / "display-manager.service").symlink_to("/lib/systemd/system/lightdm.service")
    (root / "etc" / "lightdm").mkdir()
    (root / "etc" / "lightdm" / "lightdm.conf").write_text(
        "[LightDM]\n[Seat:*]\n#user-session=default\nuser-session=LXDE-pi-x\n"
        "autologin-user=pi\nautologin-session=LXDE-pi-labwc\n"
    )
    (root / "usr" / "share" / "wayland-sessions").mkdir(parents=True)
    (root / "usr" / "share" / "wayland-sessions" / "LXDE-pi-labwc.desktop").write_text("")
    (root / "dev" / "dri").mkdir(parents=True)
    (root / "dev" / "dri" / "card1").write_text("")
    found = look_around(root, environ={})
    assert found.running == {"systemd", "lightdm", "labwc", "Xwayland"}
    assert found.default_target == "graphical.target"
    assert found.display_manager == "lightdm"
    assert (found.session, found.session_driver) == ("LXDE-pi-labwc", "wayland")
    assert found.console_screen
    assert find_screen(found).driver == "wayland"

    lite = tmp_path / "lite"
    (lite / "lib" / "systemd" / "system").mkdir(parents=True)
    (lite / "lib" / "systemd" / "system" / "default.target").symlink_to("multi-user.target")
    (lite / "dev" / "dri").mkdir(parents=True)
    (lite / "dev" / "dri" / "card0").write_text("")
    found = look_around(lite, environ={})
    assert (found.default_target, found.display_manager, found.running) == (
        "multi-user.target",
        None,
        frozenset(),
    )
    assert find_screen(found).kind == "console"


@pytest.fixture
def home(tmp_path, monkeypatch):
    """The invoking user with a home of the test's own; the system unit's path in it too."""
    (tmp_path / "system").mkdir()
    monkeypatch.setattr(install_service, "UNIT_PATH", tmp_path / "system" / "zonkcam.service")
    home = tmp_path / "home"
    home.mkdir()
    me = pwd.getpwuid(os.getuid())
    fake = pwd.struct_passwd((me.pw_name, "x", me.pw_uid, me.pw_gid, "", str(home), "/bin/sh"))
    monkeypatch.setattr(install_service.pwd, "getpwnam", lambda name: fake)
    return home


def _install(*extra: str) -> list[str]:
    me = pwd.getpwuid(os.getuid()).pw_name
    return ["install-service", "--allow-root", "--user", me, *extra]


def test_on_a_desktop_the_table_starts_full_screen_at_login(home, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(install_service, "machine", lambda: LABWC)
    assert main(_install("--", "--players", "Ann", "Bob")) == 0
    out = capsys.readouterr().out
    unit = home / ".config" / "systemd" / "user" / "zonkcam.service"
    entry = home / ".config" / "autostart" / "zonkcam.desktop"
    assert not (tmp_path / "system" / "zonkcam.service").exists()  # no system service
    found = directives(unit.read_text())
    assert "SDL_VIDEODRIVER=wayland,x11" in found["Environment"]
    words = systemd_words(found["ExecStart"][0])
    assert words[:4] == [os.path.abspath(sys.executable), "-m", "zonkcam", "play"]
    assert words[4:] == ["--fullscreen", "--source", "pi", "--players", "Ann", "Bob"]
    # the same sandbox where a user's systemd applies it; what only a system service has, not
    user_sandbox = {k: v for k, v in SANDBOX.items() if k != "CapabilityBoundingSet"}
    assert {k: found[k][0] for k in user_sandbox} == user_sandbox
    assert found["PrivateNetwork"] == ["yes"] and found["PrivateTmp"] == ["yes"]
    assert found["SystemCallFilter"] == ["@system-service", "~@privileged"]
    for system_only in ("User", "Group", "SupplementaryGroups", "WantedBy", "IPAddressDeny"):
        assert system_only not in found
    assert found["Type"] == ["notify"] and found["Restart"] == ["on-failure"]
    assert f'"-{home}/.local/share/zonkcam"' in found["ReadWritePaths"][0].split()
    assert (home / ".local" / "share" / "zonkcam").is_dir()
    # the autostart entry hands systemd the display and (re)starts the unit at each login
    import configparser

    desktop = configparser.ConfigParser(interpolation=None)
    desktop.read_string(entry.read_text())
    exec_line = desktop["Desktop Entry"]["Exec"]
    assert desktop["Desktop Entry"]["Type"] == "Application"
    assert "systemctl --user import-environment WAYLAND_DISPLAY DISPLAY" in exec_line
    assert "systemctl --user restart zonkcam.service" in exec_line
    assert "desktop session, full screen through SDL's Wayland driver" in out
    assert "labwc (a Wayland desktop) is running" in out
    assert str(unit) in out and str(entry) in out


def test_an_x11_desktop_gets_sdls_x11_driver_and_its_socket_in_tmp(home, monkeypatch, capsys):
    x11 = Machine(environ={}, running=frozenset({"Xorg"}), console_screen=True)
    monkeypatch.setattr(install_service, "machine", lambda: x11)
    assert main(_install()) == 0
    found = directives((home / ".config/systemd/user/zonkcam.service").read_text())
    assert "SDL_VIDEODRIVER=x11" in found["Environment"]
    assert "PrivateTmp" not in found  # /tmp/.X11-unix holds X11's socket
    assert "SDL's X11 driver" in capsys.readouterr().out


def test_on_a_console_the_system_service_runs_kmsdrm_and_says_why(home, tmp_path, capsys):
    assert main(_install()) == 0
    out = capsys.readouterr().out
    found = directives((tmp_path / "system" / "zonkcam.service").read_text())
    assert "SDL_VIDEODRIVER=kmsdrm" in found["Environment"]
    assert found["WantedBy"] == ["multi-user.target"]
    assert "--fullscreen" not in found["ExecStart"][0]  # KMSDRM is always full screen
    assert not (home / ".config" / "autostart").exists()
    assert "the console's service, full screen through SDL's KMSDRM driver" in out
    assert "no desktop runs or starts at boot here (multi-user.target)" in out


NOWHERE = Machine(environ={}, default_target="multi-user.target")
"""No desktop, and no screen for KMSDRM either (a server, a container)."""


def test_where_neither_fits_it_is_refused_in_one_line(home, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(install_service, "machine", lambda: NOWHERE)
    for extra in ((), ("--print",)):
        assert main(_install(*extra)) == 2
        out, err = capsys.readouterr()
        assert out == "" and len(err.strip().splitlines()) == 1
        assert "no screen for the table here" in err and "--console or --desktop" in err
    assert list(tmp_path.glob("system/*")) == [] and list(home.iterdir()) == []
    # a desktop that starts at boot with a display server that cannot be told
    unknown = Machine(
        environ={}, default_target="graphical.target", display_manager="gdm3", session="x"
    )
    monkeypatch.setattr(install_service, "machine", lambda: unknown)
    assert main(_install()) == 2
    err = capsys.readouterr().err
    assert "which display server it runs cannot be told" in err and "--desktop x11" in err
    assert main(_install("--desktop")) == 2
    assert "--desktop wayland or --desktop x11" in capsys.readouterr().err
    assert main(_install("--desktop", "mir")) == 2
    assert "--desktop takes wayland or x11, not 'mir'" in capsys.readouterr().err


def test_console_and_desktop_can_be_asked_for(home, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(install_service, "machine", lambda: NOWHERE)
    assert main(_install("--desktop", "x11")) == 0
    found = directives((home / ".config/systemd/user/zonkcam.service").read_text())
    assert "SDL_VIDEODRIVER=x11" in found["Environment"]
    assert "asked for the desktop" in capsys.readouterr().out
    monkeypatch.setattr(install_service, "machine", lambda: LABWC)
    assert main(_install("--console")) == 0
    assert "SDL_VIDEODRIVER=kmsdrm" in (tmp_path / "system" / "zonkcam.service").read_text()
    assert main(_install("--desktop")) == 0  # the desktop's display server as found
    assert (
        "SDL_VIDEODRIVER=wayland,x11" in (home / ".config/systemd/user/zonkcam.service").read_text()
    )
    with pytest.raises(SystemExit):
        main(_install("--console", "--desktop"))
    assert "not allowed with argument --console" in capsys.readouterr().err


def test_print_shows_the_desktops_files_and_writes_nothing(home, monkeypatch, capsys):
    monkeypatch.setattr(install_service, "machine", lambda: LABWC)
    assert main(_install("--print", "--", "--fullscreen")) == 0
    out = capsys.readouterr().out
    unit_at = out.index(f"# ---- {home}/.config/systemd/user/zonkcam.service\n")
    entry_at = out.index(f"# ---- {home}/.config/autostart/zonkcam.desktop\n")
    assert unit_at < out.index("[Service]") < entry_at < out.index("[Desktop Entry]")
    (exec_start,) = directives(out[:entry_at])["ExecStart"]
    assert systemd_words(exec_start).count("--fullscreen") == 1
    assert list(home.iterdir()) == []


def test_the_desktop_is_told_if_the_consoles_service_is_there_too(
    home, tmp_path, monkeypatch, capsys
):
    (tmp_path / "system" / "zonkcam.service").write_text("[Unit]\n")
    monkeypatch.setattr(install_service, "machine", lambda: LABWC)
    assert main(_install()) == 0
    assert "sudo systemctl disable --now zonkcam" in capsys.readouterr().out


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_systemd_reads_the_desktops_unit_without_a_warning(home, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(install_service, "machine", lambda: LABWC)
    assert main(_install("--print", "--", "--players", "Ann", "%h", "$HOME")) == 0
    out = capsys.readouterr().out
    at = out.index("# ---- ", 1)
    path = tmp_path / "zonkcam.service"
    path.write_text(out[out.index("\n") + 1 : at])
    runtime = tmp_path / "runtime"  # a user's systemd wants its runtime folder
    runtime.mkdir(mode=0o700)
    proc = subprocess.run(
        ["systemd-analyze", "--user", "verify", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "XDG_RUNTIME_DIR": str(runtime)},
    )
    assert proc.returncode == 0 and proc.stdout + proc.stderr == "", proc.stderr
