// Call one tool with the TypeScript SDK v2 client, answering every form from a JSON object, and print the outcome.
//
//   node gateway.mjs URL MODE TOOL ARGUMENTS ANSWERS
//     MODE: auto (2026-07-28 when the server offers it) | legacy (the 2025-11-25 handshake)
//     ARGUMENTS, ANSWERS: JSON objects; each form is answered with the ANSWERS entries its fields name
//
// The output is {"ok": true, "result": ..., "asked": [[field, ...], ...]} or {"ok": false, "error": ..., ...}.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [url, mode, tool, argumentsJson, answersJson] = process.argv.slice(2);
const answers = JSON.parse(answersJson);
const client = new Client(
  { name: 'askback-ts-test', version: '1.0.0' },
  { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode } },
);
const asked = [];
client.setRequestHandler('elicitation/create', async (request) => {
  const fields = Object.keys(request.params.requestedSchema.properties);
  asked.push(fields);
  const content = Object.fromEntries(fields.filter((f) => f in answers).map((f) => [f, answers[f]]));
  return { action: 'accept', content };
});

let output;
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  await client.listTools();
  const result = await client.callTool({ name: tool, arguments: JSON.parse(argumentsJson) });
  output = { ok: true, result, asked };
} catch (error) {
  output = { ok: false, error: String(error?.message ?? error), code: error?.code ?? null, asked };
} finally {
  await client.close().catch(() => {});
}
process.stdout.write(JSON.stringify(output) + '\n');
