// A real MCP client for the tests: the official TypeScript SDK (pinned in package.json), which negotiates
// protocol 2025-11-25. The Python test drives it one command per stdin line (JSON) and reads one JSON
// answer per stdout line. Usage: node driver.mjs <url> <token>
//
// Commands: {"op": "info"} | {"op": "call", "tool", "args", "timeout_ms"} | {"op": "read", "uri"}
// | {"op": "subscribe", "uri"} | {"op": "unsubscribe", "uri"} | {"op": "prompt", "name", "args"}
// | {"op": "updates"} (the resource updates heard so far, then cleared) | {"op": "close"}
import readline from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const [url, token] = process.argv.slice(2);
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
const client = new Client({ name: "arena-ts-test", version: "1.0.0" });
const updates = [];
client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
  updates.push({ uri: n.params.uri, at: Date.now() / 1000 });
});
const out = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");

async function run(cmd) {
  switch (cmd.op) {
    case "info":
      return {
        protocol: transport.protocolVersion,
        session: transport.sessionId ?? null,
        capabilities: client.getServerCapabilities(),
      };
    case "call": {
      const options = cmd.timeout_ms ? { timeout: cmd.timeout_ms } : undefined;
      return await client.callTool({ name: cmd.tool, arguments: cmd.args ?? {} }, undefined, options);
    }
    case "read":
      return await client.readResource({ uri: cmd.uri });
    case "subscribe":
      return await client.subscribeResource({ uri: cmd.uri });
    case "unsubscribe":
      return await client.unsubscribeResource({ uri: cmd.uri });
    case "prompt":
      return await client.getPrompt({ name: cmd.name, arguments: cmd.args ?? {} });
    case "updates":
      return { updates: updates.splice(0) };
    default:
      throw new Error(`unknown op ${cmd.op}`);
  }
}

await client.connect(transport);
out({ ok: true, result: { ready: true } });
const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  const cmd = JSON.parse(line);
  if (cmd.op === "close") break;
  const started = performance.now();
  try {
    const result = await run(cmd);
    out({ ok: true, result, wall_s: (performance.now() - started) / 1000 });
  } catch (err) {
    out({ ok: false, error: { code: err.code ?? null, message: String(err.message ?? err) },
          wall_s: (performance.now() - started) / 1000 });
  }
}
await transport.terminateSession().catch(() => {});
await client.close();
process.exit(0);
