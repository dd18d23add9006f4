/** An area chart over time in the app's accent colour, for any number of points (see chart-axes). */
import { LineChart, lineClasses } from '@mui/x-charts/LineChart';
import { useTheme } from '@mui/material/styles';
import type { Timeframe } from '../../api/stats-series';
import { chartAxes, formatAxisNumber, formatAxisTime, tickMinStep, type ChartPointXY } from './chart-axes';

interface Props {
  points: readonly ChartPointXY[];
  timeframe: Timeframe;
  /** The series name (tooltip). */
  label: string;
  height: number;
  /** A value in the tooltip. */
  valueFormatter: (value: number) => string;
}

export function TimeSeriesChart({ points, timeframe, label, height, valueFormatter }: Props) {
  const theme = useTheme();
  const axes = chartAxes(points, timeframe);
  return (
    <LineChart
      height={height}
      xAxis={[
        {
          data: points.map((p) => p.x),
          scaleType: 'time',
          tickMinStep: tickMinStep(timeframe),
          valueFormatter: (d: Date) => formatAxisTime(d, timeframe),
          ...axes.x,
        },
      ]}
      yAxis={[{ valueFormatter: formatAxisNumber, width: 56, ...axes.y }]}
      series={[
        {
          data: points.map((p) => p.y),
          area: true,
          showMark: axes.showMarks,
          color: theme.palette.primary.main,
          label,
          valueFormatter: (v) => (v === null ? '' : valueFormatter(v)),
        },
      ]}
      sx={{ [`& .${lineClasses.area}`]: { fillOpacity: 0.25 } }}
      hideLegend
    />
  );
}
