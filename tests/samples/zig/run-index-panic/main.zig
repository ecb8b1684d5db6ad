const std = @import("std");

fn third(prices: []const u32) u32 {
    return prices[2];
}

pub fn main() void {
    const prices = [_]u32{ 120, 80 };
    std.debug.print("third price: {}\n", .{third(&prices)});
}
