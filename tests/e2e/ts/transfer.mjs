// Drive the demo's `transfer` with the TypeScript SDK v2 client and print what the client returned, as JSON.
//
//   node transfer.mjs URL MODE SCENARIO
//     MODE: auto (2026-07-28 when the server offers it) | legacy (the 2025-11-25 handshake)
//     SCENARIO: decline     - answer the recipient and account, then decline the confirmation
//               cannot_ask  - declare no elicitation, so askback cannot ask for anything
//
// The tools are listed first, so the client knows `transfer`'s outputSchema and validates every result against
// it, as an application using the SDK would. The output is {"ok": true, "result": ...} or
// {"ok": false, "error": ..., "code": ...} when the client raised.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [url, mode, scenario] = process.argv.slice(2);
const asks = scenario === 'decline';
const client = new Client(
  { name: 'askback-ts-test', version: '1.0.0' },
  { capabilities: asks ? { elicitation: { form: {} } } : {}, versionNegotiation: { mode } },
);
const asked = [];
if (asks) {
  client.setRequestHandler('elicitation/create', async (request) => {
    const field = Object.keys(request.params.requestedSchema.properties)[0];
    asked.push(field);
    const answers = { to: 'DE44500105175407324931', from_account: 'DE02120300000000202051' };
    if (field in answers) return { action: 'accept', content: { [field]: answers[field] } };
    return { action: 'decline' };
  });
}

let output;
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const tools = await client.listTools();
  const transfer = tools.tools.find((t) => t.name === 'transfer');
  if (!transfer?.outputSchema) throw new Error('transfer is listed without its outputSchema');
  const result = await client.callTool({ name: 'transfer', arguments: { amount: 50 } });
  output = { ok: true, result, asked };
} catch (error) {
  output = { ok: false, error: String(error?.message ?? error), code: error?.code ?? null, asked };
} finally {
  await client.close().catch(() => {});
}
process.stdout.write(JSON.stringify(output) + '\n');
