"""`companion doctor`: report paths, schema, integrity, backups and content errors."""

from __future__ import annotations


def register(sub) -> None:
    parser = sub.add_parser("doctor", help="check the data folder and report its health")
    parser.set_defaults(func=run)


def run(args, ctx) -> int:
    from companion.core.health import check_health

    report = check_health(ctx.data_dir)
    for line in report.lines:
        print(line)
    print("healthy" if report.healthy else "UNHEALTHY: see the lines marked !")
    return 0 if report.healthy else 1
