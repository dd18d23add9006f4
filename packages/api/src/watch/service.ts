/**
 * The watch service of one API process (issue 39): the evaluator, fed by the live notices (the process's one
 * LISTEN, shared with the live hub), and the delivery dispatcher. Started by the plugin when live updates are
 * on (`ApiOptions.live`) and `ApiOptions.watch` is not false.
 */
import type { Db } from '@michelscope/db/read';
import type { LiveSource } from '../options';
import { Dispatcher } from './delivery';
import { WatchEvaluator, type EvaluationStats } from './evaluator';
import type { WatchOptions } from './options';

export class WatchService {
  readonly evaluator: WatchEvaluator;
  readonly dispatcher: Dispatcher;
  private stopListening?: () => Promise<void>;

  constructor(
    db: Db,
    readonly options: WatchOptions,
    log: (msg: string) => void,
    knownNetwork?: (network: string) => boolean,
    onEvaluated?: (s: EvaluationStats) => void,
  ) {
    this.dispatcher = new Dispatcher(db, options, log);
    this.evaluator = new WatchEvaluator(db, {
      onCreated: () => this.dispatcher.wake(),
      log,
      ...(options.maxLevelsPerEvaluation !== undefined ? { maxLevels: options.maxLevelsPerEvaluation } : {}),
      ...(knownNetwork ? { knownNetwork } : {}),
      ...(onEvaluated ? { onEvaluated } : {}),
    });
  }

  async start(source?: LiveSource): Promise<void> {
    if (source) this.stopListening = await source.listen((p) => this.evaluator.onPayload(p));
    this.dispatcher.start();
  }

  async stop(): Promise<void> {
    await this.stopListening?.();
    await this.dispatcher.stop();
  }
}
