import logging
import traceback


def risky():
    try:
        {}["k"]
    except KeyError:
        traceback.print_exc()
        logging.getLogger("app").exception("lookup failed")
    return 3
