export const registry = new Map<string, string>();
<<<<<<< HEAD
registry.set("send", "message-tools");
=======
registry.set("send", "messaging");
>>>>>>> task/TASK-008
