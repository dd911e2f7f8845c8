"""`companion doctor [--repair]`: report paths, schema, integrity, backups and content
errors. A check only reports; ``--repair`` creates what is missing, migrates, and moves a
damaged database aside (never deleting it)."""

from __future__ import annotations


def register(sub) -> None:
    parser = sub.add_parser("doctor", help="check the data folder and report its health")
    parser.add_argument(
        "--repair",
        action="store_true",
        help="also fix what can be fixed: create the journal, upgrade it, move a damaged one aside",
    )
    parser.set_defaults(func=run)


def run(args, ctx) -> int:
    from companion.core.health import check_health

    report = check_health(ctx.data_dir, repair=getattr(args, "repair", False))
    for line in report.lines:
        print(line)
    print("healthy" if report.healthy else "UNHEALTHY: see the lines marked !")
    return 0 if report.healthy else 1
