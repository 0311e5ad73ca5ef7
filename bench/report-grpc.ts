/** gRPC in the generated performance page: its target rows and its table (absent from results written before gRPC). */
import { label, n, s, table, x } from './report-format.js';
import type { Results, Target } from './results.js';

const times = (value: number): string => `${value.toFixed(2)}×`;

/**
 * a4h-a2a against the SDK's own gRPC client on the gRPC bench agent: events per second at least the
 * SDK's, CPU per event at most the SDK's (the SDK delivery's ratio in the cell).
 */
export function grpcTargets(r: Results): Target[] {
  const ratios = r.grpcThroughput?.ratios;
  const ours = ratios?.['a4h-grpc/sdk-grpc'];
  if (ours === undefined) return [];
  const theirs = ratios?.['a4h-grpc-sdk-reader/sdk-grpc'];
  const cell = (key: string): string => {
    const of = ours[key]!;
    const delivery = theirs?.[key] === undefined ? '' : `; through the SDK's iterators ${times(theirs[key].ofMedians)}`;
    return `${times(of.ofMedians)} (paired ${times(of.paired)}${delivery})`;
  };
  return [
    {
      name: "gRPC event throughput, a4h-a2a / the SDK's gRPC client",
      target: '≥ 1.00×',
      value: cell('eventsPerSec'),
      met: ours['eventsPerSec']!.ofMedians >= 1,
    },
    {
      name: "gRPC CPU per event, a4h-a2a / the SDK's gRPC client",
      target: '≤ 1.00×',
      value: cell('cpuMsPer1kEvents'),
      met: ours['cpuMsPer1kEvents']!.ofMedians <= 1,
    },
  ];
}

/** The gRPC throughput table, or nothing for results written before gRPC. */
export function grpcSection(r: Results): string[] {
  const g = r.grpcThroughput;
  if (g === undefined) return [];
  return [
    `**1b. Event throughput over gRPC**: the same turn of ${n(g.n, 0)} chunks from the gRPC bench agent (\`@grpc/grpc-js\` serving the SDK's v1.0 service, its chunks encoded by the SDK's codec once per turn and copied), ` +
      "a4h-a2a (a v1.0 stream's messages handed straight to the turn, a text chunk read from its bytes; and with `reader: 'sdk'`, through the SDK's iterators) against the SDK's own gRPC client.",
    '',
    table(
      ['contender', 'events/s', 'CPU ms per 1,000 events', 'events/s × SDK', 'CPU × SDK', 'peak RSS MB'],
      '---|--:|--:|--:|--:|--:',
      Object.entries(g.contenders).map(([c, m]) => {
        const ratio = g.ratios[`${c}/sdk-grpc`];
        return [
          label(c),
          s(m['eventsPerSec'], 0),
          s(m['cpuMsPer1kEvents'], 2),
          ratio ? `${x(ratio['eventsPerSec']?.ofMedians)} (${x(ratio['eventsPerSec']?.paired)})` : '1',
          ratio ? `${x(ratio['cpuMsPer1kEvents']?.ofMedians)} (${x(ratio['cpuMsPer1kEvents']?.paired)})` : '1',
          s(m['peakRssMb'], 0),
        ];
      }),
    ),
    '',
  ];
}
