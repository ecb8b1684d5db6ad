const std = @import("std");

pub fn main() void {
    std.debug.print("supervisor: worker thread 2 panic: recovered earlier, restarted\n", .{});
    std.debug.print("0 panics since restart; error: none\n", .{});
}
