// Call the demo's `clean_logs` (it asks during its work) with the TypeScript SDK v2 client on the 2025-11-25
// handshake, declaring no tasks extension, and print what the client returned, as JSON.
//
//   node clean_logs.mjs URL ANSWER
//     ANSWER: yes | no  - the answer to the confirmation the work asks
//             none      - declare no elicitation, so askback cannot ask
//
// The output is {"ok": true, "result": ..., "asked": [messages], "version": ...} or {"ok": false, "error": ...}.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

const [url, answer] = process.argv.slice(2);
const asks = answer !== 'none';
const client = new Client(
  { name: 'askback-ts-test', version: '1.0.0' },
  { capabilities: asks ? { elicitation: { form: {} } } : {}, versionNegotiation: { mode: 'legacy' } },
);
const asked = [];
if (asks) {
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { confirm: answer === 'yes' } };
  });
}

let output;
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const result = await client.callTool({ name: 'clean_logs', arguments: { folder: '/var/log/shop' } });
  output = { ok: true, result, asked, version: client.getNegotiatedProtocolVersion() };
} catch (error) {
  output = { ok: false, error: String(error?.message ?? error), code: error?.code ?? null, asked };
} finally {
  await client.close().catch(() => {});
}
process.stdout.write(JSON.stringify(output) + '\n');
