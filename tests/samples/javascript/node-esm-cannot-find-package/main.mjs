import createDebug from "debug-lite";
const log = createDebug("app");
log("start");
