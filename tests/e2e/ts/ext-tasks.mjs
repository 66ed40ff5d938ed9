// Run one tool as a task with @modelcontextprotocol/ext-tasks (the official Tasks requester, SEP-2663) on the
// TypeScript SDK v2 client, to the end, and print what the package made of it, as one line of JSON.
//
//   node ext-tasks.mjs URL TOOL ARGS_JSON ANSWER
//     ANSWER: what every question asked during the work gets: accept (each field filled: confirm=true) | decline
//
// The package hands its V2 task traffic to a host-supplied `rawDispatch` (its README says so): here a plain fetch
// that frames the JSON-RPC request and sets the 2026-07-28 routing headers (MCP-Protocol-Version, Mcp-Method,
// Mcp-Name). The output is {"ok": true, "status": ..., "result": ..., "asked": [...], "events": [...]} once the
// package settled the task and decoded its result (`resultFromTaskOutcome`), or {"ok": false, "error": ...}.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';

const [url, tool, argsJson, answer] = process.argv.slice(2);
const VERSION = '2026-07-28';
const info = { name: 'askback-ext-tasks-test', version: '1.0.0' };
const capabilities = { elicitation: { form: {} } };
const client = new Client(info, { capabilities, versionNegotiation: { mode: 'auto' } });
const asked = [];
const events = [];
let nextId = 1;

async function rawDispatch(bare, options) {
  const request = { jsonrpc: '2.0', id: nextId++, ...bare };
  const params = request.params ?? {};
  const name = request.method === 'tools/call' ? params.name : request.method.startsWith('tasks/') ? params.taskId : undefined;
  const headers = {
    'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': VERSION, 'Mcp-Method': request.method,
    ...(name ? { 'Mcp-Name': String(name) } : {}), ...(options?.context?.headers ?? {}),
  };
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(request), signal: options?.signal });
  const text = await response.text();
  let message;
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    for (const block of text.split(/\n\n/)) {
      const data = block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('');
      if (data) { const m = JSON.parse(data); if (m.id === request.id) message = m; }
    }
  } else message = JSON.parse(text);
  return message.error ? { kind: 'error', error: message.error } : { kind: 'result', result: message.result };
}

let output;
let session;
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  session = createTaskSessionFromClient(client, {
    endpointId: 'askback',
    rawDispatch,
    v2RequestFraming: { protocolVersion: VERSION, clientInfo: info, clientCapabilities: capabilities },
    onInputRequest: async (request, context) => {
      asked.push({ kind: request.kind, delivery: context.delivery, message: request.params?.message ?? null });
      if (request.kind !== 'elicitation') throw new Error(`unexpected input request ${request.kind}`);
      if (answer !== 'accept') return { action: answer };
      const fields = Object.keys(request.params?.requestedSchema?.properties ?? {});
      return { action: 'accept', content: Object.fromEntries(fields.map((f) => [f, f === 'confirm' ? true : 'x'])) };
    },
  });
  const execution = await session.callTool(tool, JSON.parse(argsJson), { task: { preference: 'require' } });
  const { outcome } = await execution.settle({ onEvent: (event) => events.push(event.type ?? event.kind ?? '?') });
  output = { ok: true, status: outcome.status, result: resultFromTaskOutcome(outcome), asked, events };
} catch (error) {
  output = { ok: false, error: `${error?.constructor?.name}: ${error?.message ?? error}`, code: error?.code ?? null,
             asked, events };
} finally {
  await session?.close().catch(() => {});
  await client.close().catch(() => {});
}
process.stdout.write(JSON.stringify(output) + '\n');
