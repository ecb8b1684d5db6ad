import logging
import sys

logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(levelname)s %(name)s: %(message)s")
log = logging.getLogger("report")

results = {"passed": 12, "failed": 0, "errors": 0}
log.info("scanned 12 modules, error_handler.py included")
log.warning("option 'fail_on_error' is deprecated; using 'strict'")
print(f"Summary: {results['errors']} errors, {results['failed']} failed, {results['passed']} passed")
sys.exit(0)
