import { Component, type ErrorInfo, type ReactNode } from 'react';
import { chunkRecovery, isChunkLoadError, type ChunkRecovery } from './chunk-recovery';
import {
  ErrorNotice,
  PartErrorNotice,
  ReloadingNotice,
  type CountUnsent,
  type ErrorKind,
} from './error-notice';
import { pageNavigation } from './page-navigation';

type Props = {
  children: ReactNode;
  /** When this changes (the location), a failed boundary shows its children again. */
  resetKey?: unknown;
  /** Reads how many changes wait to be sent (read only); omitted when nothing can be read. */
  countUnsent?: CountUnsent;
  /** "Go to start": defaults to a fresh load of the start page. */
  onGoToStart?: () => void;
  /** A part of a screen (named, e.g. "map"): a small notice, the rest of the screen stays. */
  part?: string;
  /** Where, for the console: "screen", "app", "map". */
  where?: string;
  /** Wraps the notice (the app-wide boundary draws the app's header around it). */
  frame?: (notice: ReactNode) => ReactNode;
  recovery?: ChunkRecovery;
};

type State = {
  failed: boolean;
  /** `deciding`: a chunk failed and the recovery has not answered yet (one commit). */
  phase: ErrorKind | 'deciding' | 'reloading';
};

/**
 * Catches what its children throw while rendering, including a lazy screen whose chunk did not
 * load. A failed chunk reloads the page once (see chunk-recovery); otherwise, and when the reload
 * did not help, it shows what happened and that what is saved on the tablet is safe. The error
 * and its component stack go to the console, never to the screen.
 */
export class ErrorBoundary extends Component<Props, State> {
  state: State = { failed: false, phase: 'render' };

  static getDerivedStateFromError(error: unknown): State {
    return { failed: true, phase: isChunkLoadError(error) ? 'deciding' : 'render' };
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(
      `Trapline: a ${this.props.where ?? 'screen'} failed to render`,
      error,
      info.componentStack,
    );
    if (!isChunkLoadError(error)) return;
    const outcome = (this.props.recovery ?? chunkRecovery).recover(error);
    this.setState({ phase: outcome === 'reloading' ? 'reloading' : 'chunk' });
  }

  componentDidUpdate(previous: Props): void {
    if (this.state.failed && previous.resetKey !== this.props.resetKey)
      this.setState({ failed: false, phase: 'render' });
  }

  private reload = () => pageNavigation.reload();

  private goToStart = () => {
    this.setState({ failed: false, phase: 'render' });
    (this.props.onGoToStart ?? pageNavigation.goToStart)();
  };

  render(): ReactNode {
    const { failed, phase } = this.state;
    if (!failed) return this.props.children;
    if (phase === 'deciding') return null;
    if (this.props.part) return <PartErrorNotice kind={phase} what={this.props.part} />;
    const frame = this.props.frame ?? ((notice: ReactNode) => notice);
    if (phase === 'reloading') return frame(<ReloadingNotice onReload={this.reload} />);
    return frame(
      <ErrorNotice
        kind={phase}
        countUnsent={this.props.countUnsent}
        onReload={this.reload}
        onGoToStart={this.goToStart}
      />,
    );
  }
}
