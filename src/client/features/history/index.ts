export { HistoryPanel } from './history-panel';
export { ChangesSinceScreen } from './changes-since-screen';
